"""Landlord and tenant: legal names, read from every place a lease names its parties.

Cues, each weighed in extraction/cues.py:

- the preamble: "... by and between ACME LLC, a Delaware limited liability company
  ("Landlord"), and BETA INC. ("Tenant")"; the role marker may be ``(hereinafter referred to
  as "Lessor")``, ``, as "Landlord"``, ``(collectively, "Landlord")``, ``("the Tenant")``.
  When both parties are stated cleanly (name, entity type, role marker and nothing else)
  the preamble is a strong cue on its own (``_clean_statement``); so is a basic-information
  summary stating both that way when the preamble names the parties only by role;
- the cover page: "LEASE BETWEEN ACME LLC, AS LANDLORD, AND BETA INC., AS TENANT";
- summary / basic-terms labels: "Landlord: ACME LLC", "1.1 Landlord. ACME LLC, a ...";
- a defined term: '"Landlord" means ACME LLC', which also resolves a preamble that names
  the parties by their defined terms ("between Landlord and the District");
- the name restated verbatim elsewhere in the agreement (signature block, notices).

In a sublease the sublandlord is the landlord of the document: when the preamble uses sub-
roles, plain "Landlord"/"Tenant" markers name the master lease's parties and are ignored.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import replace

from lease_parser.extraction.base import RawField
from lease_parser.extraction.cues import Cue, resolve
from lease_parser.extraction.evidence import add_caveat
from lease_parser.extraction.flat import FlatText, flat_text
from lease_parser.extraction.names import (
    ROLE,
    SUB_LANDLORD,
    SUB_TENANT,
    inside_longer_name,
    legal_name,
    looks_like_name,
    same_party,
)
from lease_parser.extraction.sections import (
    Agreement,
    Labelled,
    labelled_values,
    primary_agreement,
)
from lease_parser.parsing.base import Document

_LANDLORD_ROLES = re.compile(rf"(?i)^(?:{SUB_LANDLORD}|Landlord|Lessor)$")
_SUB_ROLES = re.compile(rf"(?i)^(?:{SUB_LANDLORD}|{SUB_TENANT})$")

# ("Landlord"), (hereinafter referred to as "Lessor"), (collectively, "Landlord"),
# ("Sublessor" or "Sublandlord"), ("the Tenant"), and the unbalanced 'hereinafter "Sublessee")'.
_MARKER = re.compile(
    rf"""(?:\(|\bhereinafter\b)[^()"]{{0,60}}"\s*(?:the\s+)?(?P<role>{ROLE})\s*[",]?
    [^()]{{0,60}}\)
    |\b(?:as|called)\s+(?:the\s+)?"(?P<role2>{ROLE})[",.]""",
    re.IGNORECASE | re.VERBOSE,
)
# Cover page, no quotes: "ACME LLC, a Delaware ..., AS LANDLORD, AND", "ACME CORP., Sublessor and".
_COVER_MARKER = re.compile(rf"(?:\bas|[,;])\s+(?P<role>{ROLE})\b", re.IGNORECASE)
_BETWEEN = re.compile(r"(?i)\b(?:by\s+and\s+)?(?:between|among)\b[\s,:]*")
_PREAMBLE_CHARS = 1500
_PREAMBLE_END = re.compile(r"(?i)\b(?:witnesseth|recitals|whereas|background)\b")
_COVER_CHARS = 1500

_CO_PARTY = re.compile(
    r"\band\s+(?P<name>(?:[A-Z0-9][\w.&'/-]*,?\s+){1,8}?(?:[A-Z][\w.&'-]*))\s*,?\s+(?:a|an)\s"
)
_ADDRESS_FOLLOWS = re.compile(r"(?i)[\s,]*(?:c/o|attn|attention|p\.?\s?o\.?\s+box|\d{1,6}\s+[A-Z])")
_ALIAS = re.compile(
    r"(?i)\b(?:d/?b/?a|doing\s+business\s+as|f/?k/?a|formerly\s+known\s+as|a/?k/?a|"
    r"also\s+known\s+as)\b[\s:,]*"
)
_SEE_COVER = re.compile(
    r"(?i)\W*(?:as\s+)?(?:listed|set\s+forth|stated|shown|named)\s+on\s+the\s+cover\s+page"
)
_JOINT = re.compile(r"(?i)\b(?:collectively|jointly|tenants\s+in\s+common)\b")

# (role kind, cue): "landlord" or "tenant" with where and how the name was read.
RoleCue = tuple[str, Cue]

PREAMBLE = 0.72
# A clean preamble statement (see _clean_statement): a strong cue on its own.
CLEAN_PREAMBLE = 0.85
SUMMARY = 0.6
DEFINITION = 0.6
COVER = 0.55
SIGNATURE = 0.45
NOTICE = 0.3
RESTATED = 0.35
# "The Irvine Company LLC" is a legal name with its article; "the District of Columbia" in
# running text is an article before one. A capitalised "The" cannot be told apart from the
# lease alone, so a name introduced after "The"/"THE" goes to a reviewer, whatever agrees.
_THE_BEFORE = re.compile(r"\b(?:The|THE)\s+$")


_LEAD = re.compile(
    r"[\s,;\-\ufffe_\"']*(?:(?:and|&)(?=[\s_\-\ufffe])[\s\-\ufffe_]*)?", re.IGNORECASE
)
# The previous party's description running on: ", a public corporation created by ... and".
_RUN_ON = re.compile(r"(?i)^[\s,;]*(?:a|an|having|whose|with|of|located|organized|its|which)\b")
_CAPITALISED = re.compile(r"^(?:[A-Z0-9&][\w.&',/-]*|of|and|the|&)$")


def _name_before(text: str, start: int, end: int, anchored: bool) -> tuple[int, str] | None:
    """The party name that ends at a role marker: (flat start, name) or None.

    ``anchored``: the segment starts right after "between"/"and"/the previous marker. Without
    an anchor (no "between" in the preamble) only the capitalised run before the marker is
    taken ("Dated: 20 JANE SERGI ("the Landlord")" -> "JANE SERGI").
    """
    segment = text[start:end]
    if _RUN_ON.match(segment):
        conjunctions = list(re.finditer(r"(?i)\band\b", segment))
        if not conjunctions:
            return None
        start += conjunctions[-1].start()
    lead = _LEAD.match(text, start, end)
    start = lead.end() if lead else start
    if not anchored:
        # "UNIVERSAL BIOSENSORS PTY LTD [ACN 098 234 309] ("the Tenant")": skip the bracket.
        bracket = re.search(r"\s*[\[(][^\[\]()]*[\])]\s*$", text[start:end])
        if bracket:
            end = start + bracket.start()
        tokens = list(re.finditer(r"\S+", text[start:end]))
        first = len(tokens)
        while first > 0 and _CAPITALISED.match(tokens[first - 1].group(0)):
            if tokens[first - 1].group(0).rstrip(".,").isdigit():
                break
            first -= 1
        if first == len(tokens):
            return None
        start += tokens[first].start()
    name = legal_name(text[start:end])
    if name is None:
        return None
    found = text.find(name, start, end)
    return (found if found >= 0 else start), name


# "..., a Delaware limited liability company" / "an individual": the entity-type description
# a preamble gives right after a party's name, and nothing else (no address, no agent).
_ENTITY_TYPE = re.compile(
    r"""(?ix)^,?\s+(?:a|an)\s+
    (?:(?:state|commonwealth|province|district)\s+of\s+)?(?:[A-Z][\w.'-]*\s+){0,3}?
    (?:(?:public|private|professional|business|nonprofit|non-profit|not-for-profit|stock|
        general|limited|registered|statutory|municipal|benefit)\s+){0,2}
    (?:limited\s+liability\s+(?:company|partnership|limited\s+partnership)|corporation|
       limited\s+partnership|general\s+partnership|partnership|company|real\s+estate\s+
       investment\s+trust|business\s+trust|statutory\s+trust|trust|individual|
       association|banking\s+association|sole\s+proprietorship)
    (?:\s*,?\s*as\s+(?P<role>[a-z-]+))?
    \s*,?\s*$""",
)
_BLANK_MARKS = re.compile(r"[_\[\]{}●*]|\bX{2,}\b|\.{4,}")


def _clean_statement(
    text: str, segment_start: int, offset: int, name: str, marker: re.Match[str]
) -> bool:
    """The name runs from the anchor ("between", "and") to its entity-type description,
    which runs to the role marker: nothing left over on either side, no blank. A leading
    "The" is part of some names ("The Irvine Company LLC") and not of others: not clean.

    Measured before trusting it: every preamble of this shape in the development corpus,
    the repository samples and the public EDGAR leases spot-checked named the right party.
    """
    end = marker.start()
    if text[offset : offset + len(name)] != name:
        return False
    before = text[segment_start:offset]
    description = _ENTITY_TYPE.match(text[offset + len(name) : end])
    if description is None or re.fullmatch(r"(?i)[\s,;]*(?:and\s+)?", before) is None:
        return False
    # ", a Delaware corporation, as landlord ("Landlord")": the words must name that role.
    said = description.group("role")
    if said and not (
        re.fullmatch(rf"(?i){ROLE}", said) and _role_kind(said) == _role_kind(_role_of(marker))
    ):
        return False
    return not _BLANK_MARKS.search(text[segment_start:end]) and not _JOINT.search(
        text[segment_start:end]
    )


def _role_kind(role: str) -> str:
    return "landlord" if _LANDLORD_ROLES.match(role) else "tenant"


def _preamble_cues(flat: FlatText, main: Agreement) -> tuple[list[RoleCue], bool, dict[str, str]]:
    """Names before role markers in the preamble; whether sub-roles are used; and the
    trade names the preamble gives ("COHEN BROTHERS, LLC d/b/a COHEN & COMPANY")."""
    lo = main.opener_start
    hi = min(main.end, lo + _PREAMBLE_CHARS)
    stop = _PREAMBLE_END.search(flat.text, lo + 50, hi)
    hi = stop.start() if stop else hi
    between = _BETWEEN.search(flat.text, lo, hi)
    markers = list(_MARKER.finditer(flat.text, lo, hi))
    if not markers and between:  # "between ACME LLC, as Landlord, and BETA INC., as Tenant"
        markers = list(_COVER_MARKER.finditer(flat.text, between.end(), hi))
    sub = any(_SUB_ROLES.match(_role_of(m)) for m in markers[:2])
    cues: list[RoleCue] = []
    aliases: dict[str, str] = {}
    seen: set[str] = set()
    clean: set[str] = set()
    boundary = between.end() if between else lo
    for marker in markers:
        role = _role_of(marker)
        segment_start = boundary
        boundary = marker.end()
        if sub and not _SUB_ROLES.match(role):
            continue
        kind = _role_kind(role)
        if kind in seen:
            continue
        found = _name_before(flat.text, segment_start, marker.start(), anchored=between is not None)
        if found is None:
            continue
        offset, name = found
        seen.add(kind)
        if between and _clean_statement(flat.text, segment_start, offset, name, marker):
            clean.add(kind)
        name, length = _with_co_parties(name, flat.text[offset : marker.end()])
        cues.append((kind, Cue(name, offset, offset + length, "preamble", PREAMBLE)))
        alias = _ALIAS.search(flat.text, offset, marker.start())
        trade_name = legal_name(flat.text[alias.end() : marker.start()]) if alias else None
        if trade_name:
            aliases[trade_name] = name
    if clean == {"landlord", "tenant"}:
        # Both parties stated cleanly: the canonical statement of who the parties are.
        cues = [
            (kind, replace(cue, source="clean preamble", weight=CLEAN_PREAMBLE, strong=True))
            for kind, cue in cues
        ]
    return cues, sub, aliases


def _role_of(marker: re.Match[str]) -> str:
    return marker.group("role") or marker.groupdict().get("role2") or ""


def _with_co_parties(name: str, segment: str) -> tuple[str, int]:
    """ "A, L.L.C., a ... company and B, L.L.C., a ... company (collectively, "Landlord")":
    the joint name, and how much of ``segment`` states it (the span cited)."""
    length = len(name)
    if not _JOINT.search(segment):
        return name, length
    names = [name]
    for match in _CO_PARTY.finditer(segment):
        other = legal_name(match.group("name"))
        if other and not any(same_party(other, n) for n in names):
            names.append(other)
            length = match.start("name") + match.group("name").find(other) + len(other)
    return " and ".join(names), length


def _cover_cues(flat: FlatText, main: Agreement, sub: bool) -> list[RoleCue]:
    """ "LEASE BETWEEN A, AS LANDLORD, AND B, AS TENANT" before the preamble."""
    lo = main.start
    hi = min(main.opener_start, lo + _COVER_CHARS) if main.opener_end else lo + _COVER_CHARS
    between = _BETWEEN.search(flat.text, lo, hi)
    if between is None:
        return []
    cues: list[RoleCue] = []
    boundary = between.end()
    for marker in _COVER_MARKER.finditer(flat.text, boundary, hi):
        role = marker.group("role")
        segment_start, boundary = boundary, marker.end()
        if sub != bool(_SUB_ROLES.match(role)):
            continue
        found = _name_before(flat.text, segment_start, marker.start(), anchored=True)
        if found:
            offset, name = found
            name, length = _with_co_parties(name, flat.text[offset : marker.end()])
            kind = _role_kind(role)
            cues.append((kind, Cue(name, offset, offset + length, "cover", COVER)))
    return cues


def _label_cues(flat: FlatText, main: Agreement, sub: bool) -> list[RoleCue]:
    """ "Landlord: ACME LLC" on a summary page; the same form in a signature block."""
    roles = (SUB_LANDLORD + "|" + SUB_TENANT) if sub else "Landlord|Lessor|Tenant|Lessee"
    label = re.compile(
        rf"(?i)(?<![\w'])(?:\d+(?:\.\d+)*\.?\s+)?(?P<role>{roles})(?:'s\s+name)?(?=\s*[:.])"
    )
    cues: list[RoleCue] = []
    for found in labelled_values(flat, label, (main.start, main.end)):
        numbered = found.label[:1].isdigit()
        if found.separator != ":" and not numbered:
            continue
        role = re.sub(r"^[\d.\s]+", "", found.label)
        if _SEE_COVER.match(found.value):
            # "Landlord: As listed on the cover page": the summary vouches for the cover
            # (a check of it: the name is read, and cited, on the cover).
            cover = [c for k, c in _cover_cues(flat, main, sub) if k == _role_kind(role)]
            cues += [
                (
                    _role_kind(role),
                    Cue(c.value, found.start, found.end, "summary", SUMMARY, check=True),
                )
                for c in cover
            ]
            continue
        name = legal_name(found.value)
        if name is None:
            continue
        after = flat.text[found.start + len(name) : found.end + 120]
        if re.search(r"(?i)\bBy\s*:?\s*(?:/s/|_|\w)", after[:120]):
            source, weight = "signature", SIGNATURE
        elif _ADDRESS_FOLLOWS.match(after):
            source, weight = "notice", NOTICE
        else:
            source, weight = "summary", SUMMARY
        kind = _role_kind(role)
        start = found.start + found.value.find(name) if name in found.value else found.start
        if source == "summary" and _clean_label(flat, found, name):
            source = "clean summary"
        cues.append((kind, Cue(name, start, start + len(name), source, weight)))
    return cues


def _clean_label(flat: FlatText, found: Labelled, name: str) -> bool:
    """ "Landlord: 150 Main Street, LLC, a Delaware limited liability company." on its own
    line: the summary's statement of a party, shaped like a clean preamble's."""
    at_line_start = flat.starts_line(found.label_start) or found.label[:1].isdigit()
    rest = found.value[len(name) :] if found.value.startswith(name) else None
    return (
        at_line_start
        and rest is not None
        and _ENTITY_TYPE.match(rest.rstrip(" .")) is not None
        and not _BLANK_MARKS.search(found.value)
    )


def _summary_states_parties(role_cues: list[RoleCue], named_elsewhere: bool) -> list[RoleCue]:
    """When the preamble names the parties only by role ("between the Landlord and the
    Tenant named below"), the basic-information summary is where the lease states them:
    clean summary statements of both parties are then as strong as a clean preamble."""
    clean = {kind for kind, cue in role_cues if cue.source == "clean summary"}
    strong = clean == {"landlord", "tenant"} and not named_elsewhere
    return [
        (kind, _as_summary(cue, strong)) if cue.source == "clean summary" else (kind, cue)
        for kind, cue in role_cues
    ]


def _as_summary(cue: Cue, strong: bool) -> Cue:
    if strong:
        return replace(cue, weight=CLEAN_PREAMBLE, strong=True)
    return replace(cue, source="summary")


def _definition_cues(flat: FlatText, main: Agreement, terms: dict[str, str]) -> list[RoleCue]:
    """'"Landlord" means ACME LLC, a ...' for the roles and for terms the preamble used."""
    cues: list[RoleCue] = []
    for term, kind in terms.items():
        pattern = re.compile(
            rf'"{re.escape(term)}"\s+(?:shall\s+)?(?:means?|refers?\s+to|is)\s+(?:the\s+)?',
        )
        for match in pattern.finditer(flat.text, main.start, main.end):
            name = legal_name(flat.text[match.end() : match.end() + 200])
            if name and looks_like_name(name):
                start = match.end()
                cues.append((kind, Cue(name, start, start + len(name), "definition", DEFINITION)))
                break
    return cues


_TERM_PAIR = re.compile(
    r"(?i)\b(?:by\s+and\s+)?between\s+(?:the\s+)?(?P<a>[A-Z]\w+)\s+and\s+(?:the\s+)?(?P<b>[A-Z]\w+)\b"
)


def _defined_terms(flat: FlatText, main: Agreement, sub: bool) -> dict[str, str]:
    """Role words to look up, plus a non-role term the preamble names a party by."""
    terms = (
        {
            "Sublandlord": "landlord",
            "Sublessor": "landlord",
            "Subtenant": "tenant",
            "Sublessee": "tenant",
        }
        if sub
        else {"Landlord": "landlord", "Lessor": "landlord", "Tenant": "tenant", "Lessee": "tenant"}
    )
    pair = _TERM_PAIR.search(flat.text, main.opener_start, main.opener_end + 80)
    if pair:
        a, b = pair.group("a"), pair.group("b")
        if _LANDLORD_ROLES.match(a) and not re.match(rf"(?i){ROLE}$", b):
            terms[b] = "tenant"
        elif re.match(rf"(?i){ROLE}$", b) and not re.match(rf"(?i){ROLE}$", a):
            terms[a] = "landlord"
    return terms


# A signature block: the name, perhaps its description, then "By:" / "By /s/" / "By: ____".
_SIGNS = re.compile(r"(?s)^[,.]?\s*(?:\([^()]{0,60}\)\s*)?(?:,?\s*an?\s[^.]{0,80}?)?\s*\bBy\b\s*:?")


def _restated_cues(flat: FlatText, main: Agreement, cues: list[Cue]) -> list[Cue]:
    """The name again elsewhere in the agreement (punctuation and case aside) confirms where
    it starts and ends: a mis-cut name is rarely restated. Above a "By:" line it is the
    party signing, a cue of its own."""
    out: list[Cue] = []
    for name in {c.value for c in cues}:
        chunks = re.findall(r"[A-Za-z0-9]+", name)
        if len("".join(chunks)) < 4:
            continue
        pattern = re.compile(r"(?i)\b" + r"[\W_]*".join(chunks) + r"\b")
        spans = [c.start for c in cues if c.value == name]
        found: dict[str, Cue] = {}
        for match in pattern.finditer(flat.text, main.start, main.end):
            if any(abs(match.start() - s) <= 20 for s in spans) or inside_longer_name(
                flat.text, match
            ):
                continue
            signs = _SIGNS.match(flat.text[match.end() : match.end() + 160])
            source, weight = ("signature", SIGNATURE) if signs else ("restated", RESTATED)
            found.setdefault(source, Cue(name, match.start(), match.end(), source, weight))
            if len(found) == 2:
                break
        out.extend(found.values())
    return out


def extract_parties(document: Document) -> list[RawField]:
    flat = flat_text(document)
    main = primary_agreement(flat)
    role_cues, sub, aliases = _preamble_cues(flat, main)

    def same(a: str, b: str) -> bool:
        """One party: the same name, or a trade name and the name it is the trade name of."""
        if same_party(a, b):
            return True
        return any(
            (same_party(a, alias) and same_party(b, name))
            or (same_party(b, alias) and same_party(a, name))
            for alias, name in aliases.items()
        )

    role_cues += _cover_cues(flat, main, sub)
    labels = _label_cues(flat, main, sub)
    role_cues += _summary_states_parties(labels, named_elsewhere=bool(role_cues))
    role_cues += _definition_cues(flat, main, _defined_terms(flat, main, sub))
    out = []
    for kind in ("landlord", "tenant"):
        cues = [cue for role, cue in role_cues if role == kind]
        cues += _restated_cues(flat, main, cues)
        best = resolve(kind, cues, flat, same)
        if best is not None:
            out.append(_doubt_a_leading_the(best, cues, flat, same))
    return out


def _doubt_a_leading_the(
    best: RawField, cues: list[Cue], flat: FlatText, same: Callable[[str, str], bool]
) -> RawField:
    # Where the name is introduced; a later "the Acme lease" is an article in running text.
    written = [
        c
        for c in cues
        if c.source != "restated" and best.value is not None and same(c.value, best.value)
    ]
    if not any(_THE_BEFORE.search(flat.text[max(0, c.start - 5) : c.start]) for c in written):
        return best
    add_caveat(best, "written after 'The': is it part of the legal name?")
    return best
