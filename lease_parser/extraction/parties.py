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
from bisect import bisect_right
from collections.abc import Callable
from dataclasses import replace

from lease_parser.extraction.base import RawField
from lease_parser.extraction.cues import Cue, resolve
from lease_parser.extraction.evidence import add_caveat
from lease_parser.extraction.flat import FlatText, flat_text
from lease_parser.extraction.names import (
    LANDLORD_WORDS,
    ROLE,
    SUB_LANDLORD,
    SUB_TENANT,
    TENANT_WORDS,
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

_LANDLORD_ROLES = re.compile(rf"(?i)^(?:{SUB_LANDLORD}|{LANDLORD_WORDS})$")
_SUB_ROLES = re.compile(rf"(?i)^(?:{SUB_LANDLORD}|{SUB_TENANT})$")

# ("Landlord"), (hereinafter referred to as "Lessor"), (collectively, "Landlord"),
# ("Sublessor" or "Sublandlord"), ("the Tenant"), and the unbalanced 'hereinafter "Sublessee")'.
# Unquoted, as English and residential leases write them: "(the Landlord)", "referred to
# as the Landlord)", "(hereinafter referred to jointly and severally as the Tenant)",
# "hereinafter called the Lessee".
_MARKER = re.compile(
    rf"""(?:\(|\bhere\s?in\s?after\b)[^()"']{{0,60}}["']\s*(?:the\s+)?(?P<role>{ROLE})\s*
    ["',]?[^()]{{0,60}}\)
    |\b(?:as|called)\s+(?:the\s+)?["'](?P<role2>{ROLE})["',.]
    |\((?:the\s+)?(?P<role3>{ROLE})\)
    |\b(?:referred\s+to\s+(?:herein\s+)?(?:jointly\s+and\s+severally\s+)?as|here\s?in\s?after
       \s+(?:called|named|referred\s+to\s+as))\s+(?:the\s+)?(?P<role4>{ROLE})\b(?!['’]s)""",
    re.IGNORECASE | re.VERBOSE,
)
# Cover page, no quotes: "ACME LLC, a Delaware ..., AS LANDLORD, AND", "ACME CORP., Sublessor and".
_COVER_MARKER = re.compile(
    rf"(?:\bas|[,;])\s+(?P<role>{ROLE})\b(?!\s+(?:in\s+common|by\s+the\s+entirety))",
    re.IGNORECASE,
)
# Where the parties' names begin: "by and between", "BETWEEN:-", "by the following
# parties:", and "made as of June 7, 2023 by ACME ..." (no "between" at all).
_BETWEEN = re.compile(
    r"(?i)\b(?:by\s+and\s+)?(?:between|among)\b[\s,:\-]*"
    r"|\b(?:by|between)\s+the\s+following\s+parties\b[\s,:\-]*"
)
_MADE_BY = re.compile(
    r"(?i)\b(?:made|entered\s+into|executed|dated)\b[^.;()]{0,80}?\bby\s+(?-i:(?=[A-Z0-9]))"
)
# Before the second party: "... On the one hand; And Between", "of the one part and".
_SECOND_PARTY = re.compile(r"(?i)\b(?:between|of\s+the\s+one\s+part|on\s+the\s+one\s+hand)\b")
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
    r"[\s,;\-\ufffe_\"')]*(?:(?:and|&)(?=[\s_\-\ufffe])[\s\-\ufffe_]*)?"
    r"(?:(?:\(\s*(?:\d{1,2}|[a-h]|[ivx]{1,4})\s*\)|\d{1,2}\.)\s+)?",  # "(1)", "(2)", "1."
    re.IGNORECASE,
)
# The previous party's description running on: ", a public corporation created by ... and".
_RUN_ON = re.compile(r"(?i)^[\s,;]*(?:a|an|having|whose|with|of|located|organized|its|which)\b")
_CAPITALISED = re.compile(r"^(?:[A-Z0-9&][\w.&',/-]*|of|and|the|&)$")


def _name_before(text: str, start: int, end: int, anchored: bool) -> tuple[int, str] | None:
    """The party name that ends at a role marker: (flat start, name) or None.

    ``anchored``: the segment starts right after "between"/"and"/the previous marker. Without
    an anchor (no "between" in the preamble) only the capitalised run before the marker is
    taken ("Dated: 20 MARA LINDQVIST ("the Landlord")" -> "MARA LINDQVIST").
    """
    segment = text[start:end]
    second = list(_SECOND_PARTY.finditer(segment))
    if second:  # "... On the one hand; And Between TopSpin Ltd": the name follows it
        start += second[-1].end()
        segment = text[start:end]
    if _RUN_ON.match(segment):
        conjunctions = list(re.finditer(r"(?i)\band\b", segment))
        if not conjunctions:
            return None
        start += conjunctions[-1].start()
    lead = _LEAD.match(text, start, end)
    start = lead.end() if lead else start
    if not anchored:
        # "COASTAL SENSORS PTY LTD [ACN 012 345 678] ("the Tenant")": skip the bracket.
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
    trade names the preamble gives ("HALE BROTHERS, LLC d/b/a HALE & COMPANY")."""
    lo = main.opener_start
    hi = min(main.end, lo + _PREAMBLE_CHARS)
    stop = _PREAMBLE_END.search(flat.text, lo + 50, hi)
    hi = stop.start() if stop else hi
    markers = [
        m
        for m in _MARKER.finditer(flat.text, lo, hi)
        if not (m.group("role3") and _own_line(flat, m.start(), m.end()))
    ]
    between = _anchor(flat, lo, hi, markers[0].start() if markers else hi)
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


def _anchor(flat: FlatText, lo: int, hi: int, first_marker: int) -> re.Match[str] | None:
    """Where the parties' names begin: "between" before the first role marker, else "made
    ... by" before it ("THIS AMENDMENT is made as of June 7, 2023 by ACME ("Landlord")"),
    else any "between"."""
    between = _BETWEEN.search(flat.text, lo, hi)
    if between is not None and between.start() < first_marker:
        return between
    made_by = _MADE_BY.search(flat.text, lo, first_marker)
    return made_by or between


# '("DSI")': a short name the preamble gives a party instead of its role.
_NICKNAME = re.compile(r"""\(\s*(?:the\s+)?["'](?P<nick>[A-Z][\w.&-]{1,20})\s*["']\s*\)""")
_DEMISE = r"(?:(?:shall|does|will)\s+)?(?:hereby\s+)?(?:sub)?(?:leases?|demises?|lets?)\b"


def _demise_cues(flat: FlatText, main: Agreement) -> list[RoleCue]:
    """ "between HARBOR LEASING CORP ("HLC") ... and DELTA STORAGE, INC. ("DSI")" with no
    role: the grant ("DSI does hereby LEASE, DEMISE and LET unto HLC") says who lets the
    premises to whom."""
    lo = main.opener_start
    hi = min(main.end, lo + _PREAMBLE_CHARS)
    stop = _PREAMBLE_END.search(flat.text, lo + 50, hi)
    hi = stop.start() if stop else hi
    nicks = [m for m in _NICKNAME.finditer(flat.text, lo, hi) if not re.fullmatch(ROLE, m["nick"])]
    between = _anchor(flat, lo, hi, nicks[0].start() if nicks else hi)
    if len(nicks) != 2 or between is None:
        return []
    named: dict[str, tuple[int, str]] = {}
    boundary = between.end()
    for nick in nicks:
        found = _name_before(flat.text, boundary, nick.start(), anchored=True)
        boundary = nick.end()
        if found is None:
            return []
        named[nick["nick"]] = found
    (a, b) = named
    for lessor, lessee in ((a, b), (b, a)):
        grant = re.compile(
            rf"(?<![\w\"]){re.escape(lessor)}\s+(?i:{_DEMISE})[^.;]{{0,80}}?\b(?i:un)?to\s+"
            rf"(?:the\s+)?{re.escape(lessee)}\b"
        )
        if grant.search(flat.text, hi, main.end):
            return [
                (kind, Cue(name, offset, offset + len(name), "preamble", PREAMBLE))
                for kind, (offset, name) in (("landlord", named[lessor]), ("tenant", named[lessee]))
            ]
    return []


def _role_of(marker: re.Match[str]) -> str:
    groups = marker.groupdict()
    return next((groups[g] for g in ("role", "role2", "role3", "role4") if groups.get(g)), "")


def _own_line(flat: FlatText, start: int, end: int) -> bool:
    """A role on a line of its own ("(Landlord)" above the name in a particulars table)
    labels what follows it: it is no marker after a name."""
    spaces = _SPACES_COLONS.match(flat.text, end)
    label_end = spaces.end() if spaces else end
    return flat.starts_line(start) and (flat.starts_line(label_end) or label_end >= len(flat.text))


_SPACES_COLONS = re.compile(r"[ :]*")


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
    roles = (SUB_LANDLORD + "|" + SUB_TENANT) if sub else f"{LANDLORD_WORDS}|{TENANT_WORDS}"
    # "Landlord:", "1.1 Landlord.", "Landlord's name:", "Name of Landlord:", "Tenant Name(s):",
    # "resident(s) (list all people signing the Lease Contract):"
    label = re.compile(
        rf"(?i)(?<![\w'/])(?:\d+(?:\.\d+)*\.?\s+)?(?:name\s+of\s+(?:the\s+)?)?(?P<role>{roles})"
        r"(?:['’]s)?(?:\s+(?:full\s+|legal\s+)?names?(?:\s*\(s\))?)?"
        r"(?:\s*\((?:list|names?|print)\b[^()]{0,60}\))?(?=\s*[:.])"
    )
    cues: list[RoleCue] = []
    for found in labelled_values(flat, label, (main.start, main.end)):
        numbered = found.label[:1].isdigit()
        if found.separator != ":" and not numbered:
            continue
        if _WITNESS.search(flat.text, max(0, found.label_start - 30), found.label_start):
            continue  # "WITNESSES FOR TENANT: <names>": who saw the tenant sign, not the tenant
        if _STACKED.search(flat.text, max(0, found.label_start - 40), found.label_start):
            # "LANDLORD: TENANT: ACME LLC BETA INC.": two columns read as one line; the
            # names below the labels cannot be told apart by reading order alone.
            continue
        said = re.search(rf"(?i)(?<![\w'/])(?:{roles})", found.label)
        role = said.group(0) if said else found.label
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
        several = _SEVERAL.search(role) is not None or "(s)" in found.label.lower()
        name = _names_in(found.value, several=several)
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


_STACKED = re.compile(rf"(?i)(?<![\w'/])(?:{ROLE})\s*:\s*$")
_WITNESS = re.compile(r"(?i)\b(?:witness(?:es)?|attest(?:ed)?)\s+(?:for|to|of|by)\s+(?:the\s+)?$")
# Labels that may list several people: "Tenant(s):", "Residents:".
_SEVERAL = re.compile(r"(?i)\(s\)|s$")
_NEXT_NAME = re.compile(r"\s*(?:,|;|&|\band\b)\s*")
_PERSON = re.compile(r"^(?:[A-Z][\w'.-]*\s+){1,3}[A-Z][\w'-]+$")


def _names_in(value: str, several: bool) -> str | None:
    """The name a label gives; under a "Tenant(s):" label every person listed, joined by
    "and" ("Alex Moreno, Jamie Moreno" -> "Alex Moreno and Jamie Moreno")."""
    name = legal_name(value)
    if name is None or not several or not _PERSON.match(name):
        return name
    names, rest = [name], value[value.find(name) + len(name) :] if name in value else ""
    while (joint := _NEXT_NAME.match(rest)) is not None:
        other = legal_name(rest[joint.end() :])
        if other is None or not _PERSON.match(other) or not rest.startswith(other, joint.end()):
            break
        names.append(other)
        rest = rest[joint.end() + len(other) :]
    return " and ".join(names)


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


def _particulars_cues(flat: FlatText, main: Agreement, sub: bool) -> list[RoleCue]:
    """Where a lease lists its parties in a table or its particulars without a colon: the
    role on a line of its own above the name ("(Landlord)" / "Rowan Propco Limited"), the
    Land Registry's "LR3. Parties to this lease Landlord X Tenant Y", and a signature
    block's quoted heading ('"LANDLORD" ACME LLC, a ... By:')."""
    roles = (SUB_LANDLORD + "|" + SUB_TENANT) if sub else f"{LANDLORD_WORDS}|{TENANT_WORDS}"
    cues: list[RoleCue] = []
    own_line = re.compile(rf"(?i)\(?(?:the\s+)?(?P<role>{roles})\)?\s*")
    # A label starts its line: tried at each line's start, not at every character.
    starts = sorted(i for i in flat.line_starts if main.start <= i < main.end)
    for match in filter(None, (own_line.match(flat.text, i, main.end) for i in starts)):
        if not _labels_line(flat, match.start(), match.end()):
            continue
        name_at = match.end()
        line_end = _line_end(flat, name_at)
        cue = _name_cue(flat, match.group("role"), name_at, line_end, "summary")
        cues += [cue] if cue else []
    for heading in _PARTIES_HEADING.finditer(flat.text, main.start, main.end):
        hi = min(main.end, heading.end() + _PARTIES_HEADING_CHARS)
        stop = _PARTIES_HEADING_END.search(flat.text, heading.end(), hi)
        hi = stop.start() if stop else hi
        role_word = re.compile(rf"(?<![\w'/])(?P<role>{roles})\b\s+(?=[A-Z0-9])")
        listed = list(role_word.finditer(flat.text, heading.end(), hi))
        for index, role in enumerate(listed):
            end = listed[index + 1].start() if index + 1 < len(listed) else hi
            cue = _name_cue(flat, role.group("role"), role.end(), end, "summary")
            cues += [cue] if cue else []
    cues += _quoted_heading_cues(flat, main, roles)
    return [(kind, cue) for kind, cue in cues if len(cue.value.split()) >= 2]


def _quoted_heading_cues(flat: FlatText, main: Agreement, roles: str) -> list[RoleCue]:
    """'"LANDLORD" ACME LLC, a ... By: ___ "TENANT" BETA INC. By: ___': a quoted role heads
    the signature block below it, unless the headings are captions under the blocks (the
    first one follows a "By:"/"Title:" line): then each names the block above it, and the
    name after it is the next party's."""
    quoted = re.compile(rf"(?i)\"(?P<role>{roles})\"\s+(?=[A-Z0-9])")
    cues: list[RoleCue] = []
    for match in quoted.finditer(flat.text, main.start, main.end):
        cue = _name_cue(flat, match.group("role"), match.end(), match.end() + 200, "signature")
        if cue is None or cue[1].source != "signature":
            continue
        if not cues and _AFTER_SIGNATURE.search(
            flat.text, max(0, match.start() - 80), match.start()
        ):
            return []
        cues.append(cue)
    return cues


_AFTER_SIGNATURE = re.compile(r"\b(?:By|BY|Name|NAME|Title|TITLE|Its|ITS|Date|DATE)\s*:|/s/")


def _labels_line(flat: FlatText, start: int, end: int) -> bool:
    """A role alone on its line, after a line that ends a statement: a particulars label
    ("(Landlord)" above the name), not a role marker broken over lines ('("Landlord")')
    nor the end of a sentence ("... REATA INC., Tenant" / "TABLE OF CONTENTS")."""
    if not _own_line(flat, start, end):
        return False
    before = flat.text[max(0, start - 12) : start].rstrip()
    return not re.search(r"\([\"']?$|[,;&]$|\b(?:and|or|the|of|by|as)$", before) and flat.text[
        end : end + 1
    ] not in {'"', "'", ")"}


_PARTIES_HEADING = re.compile(
    r"(?i)\bparties\s+to\s+this\s+(?:(?:sub|under)?lease|deed|agreement|tenancy)\b\s*:?\s*"
)
_PARTIES_HEADING_CHARS = 900
_PARTIES_HEADING_END = re.compile(r"(?i)\bother\s+parties\b|\bLR\s?4\b")


def _line_end(flat: FlatText, index: int) -> int:
    starts = flat.shared("sorted line starts", lambda: sorted(flat.line_starts))
    at = bisect_right(starts, index)
    return starts[at] if at < len(starts) else len(flat.text)


_NAME_LABEL = re.compile(r"(?i)\s*(?:full\s+|legal\s+)?names?\s*:\s*")


def _name_cue(flat: FlatText, role: str, start: int, end: int, source: str) -> RoleCue | None:
    """The name that ``text[start:end]`` begins with, as a cue for ``role``: a signature
    when a "By:" line follows it, else ``source``."""
    named = _NAME_LABEL.match(flat.text, start, end)  # "Landlord" / "Name: ACME LIMITED"
    start = named.end() if named else start
    value = flat.text[start:end]
    name = legal_name(value)
    if name is None or not value.lstrip(" ").startswith(name):
        return None
    at = start + value.find(name)
    after = flat.text[at + len(name) : at + len(name) + 160]
    if _SIGNS.match(after):
        source, weight = "signature", SIGNATURE
    else:
        weight = SUMMARY if source == "summary" else SIGNATURE
    return _role_kind(role), Cue(name, at, at + len(name), source, weight)


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
    if not role_cues:
        role_cues = _demise_cues(flat, main)

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
    labels = _label_cues(flat, main, sub) + _particulars_cues(flat, main, sub)
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
