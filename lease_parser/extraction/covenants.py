"""What the tenant may do with the lease and the premises, and who stands behind it: the
assignment and subletting clause, the guarantor, the permitted use.

Read in one pass over the main agreement with compiled patterns, as leases state them:

- ``assignment_subletting``: "Tenant shall not assign this Lease or sublet the Premises
  without Landlord's prior written consent" (or "except with", any restriction that speaks
  of consent or approval) is ``consent``; "Tenant shall not assign this
  Lease or sublet the Premises" with no consent, exception or proviso in the sentence, or
  "assignment and subletting are prohibited", is ``prohibited``; "Tenant may assign this
  Lease or sublet the Premises without Landlord's consent" (or "at any time", asking no
  consent and setting no condition) is ``permitted``, unless the sentence is about an
  affiliate, a merger or a successor (a permitted transfer beside the rule). Long leases
  put clauses between "shall not" and the verb ("shall not, without the prior written
  consent of Landlord, which shall not be unreasonably withheld, (1) assign"; "shall not
  have the right ... to: (a) mortgage, pledge, ... or otherwise transfer"). Only the
  tenant's transfers count (the landlord may sell the building), and not an option's, a
  letter of credit's or an award's;
- ``guarantor``: "Guarantor: Bluefin Holdings, Inc.", a "GUARANTOR:" signature block,
  "Bluefin Holdings, Inc., a Delaware corporation ("Guarantor")", "guaranteed by ..."; "N/A",
  "None", "Intentionally omitted" name nobody;
- ``permitted_use``: "Permitted Use: general office purposes", "The Premises shall be used
  solely for the purpose of general office uses and for no other purpose", "Tenant shall
  use the Premises only for retail sales": the stated use, cut before "and for no other
  purpose", "including", "subject to"; "for the Permitted Use" refers to it, it does not
  state it.

None of them is labelled yet, so none gates (model.py): their rivals are notes, not doubts.
"""

from __future__ import annotations

import re

from lease_parser.extraction.base import RawField
from lease_parser.extraction.clauses import SENTENCE_END, sentence_start
from lease_parser.extraction.cues import Cue, resolve
from lease_parser.extraction.evidence import without_doubts
from lease_parser.extraction.flat import FlatText, flat_text
from lease_parser.extraction.names import legal_name, same_party
from lease_parser.extraction.sections import primary_span
from lease_parser.parsing.base import Document

SENTENCE_AHEAD = 400

# -- assignment and subletting --------------------------------------------------------------

_TENANT = r"(?:tenant|lessee|sub-?tenant|sub-?lessee|resident|you|I)(?:['’]s)?"
# The party a lease names otherwise ("The District shall not assign"): any defined name but
# the landlord's.
_PARTY = (
    rf"(?:(?i:{_TENANT})|(?-i:(?!(?:Landlord|Lessor|Sublessor|Sublandlord|Owner|Licensor|Lender|"
    r"Mortgagee|Agent|Broker|Guarantor|It|This|Such|Each|Either|Neither)\b)[A-Z][a-z]+))"
)
_TRANSFER = r"(?:assign|sublet|sublease|sub-?let|underlet|transfer)\w*"
# Between "shall not" and the transfer: only words that leave the transfer its verb.
# "shall not, without the prior written consent of Landlord, which shall not be unreasonably
# withheld, (1) assign", "shall not have the right, without ..., to: (a) mortgage, pledge,
# hypothecate, encumber, permit any lien to attach to, or otherwise transfer".
_BEFORE_VERB = (
    r"(?:\s*,[^;.]{0,160}?,|\s+(?:voluntarily|involuntarily|directly|indirectly|either|or|otherwise|"
    r"by\s+operation\s+of\s+law|have\s+the\s+right(?:\s+to)?|be\s+entitled\s+to|to:?|"
    r"\([a-z0-9]{1,3}\)|(?:sell|pledge|license|hypothecate|mortgage|encumber|charge|"
    r"permit\s+any\s+lien\s+to\s+attach\s+to),?|(?:effect|make|suffer|permit|allow)"
    r"(?:\s+or\s+(?:effect|make|suffer|permit|allow))?\s+(?:an?|any)))*\s+"
)
# Each is matched at a literal FlatText.places finds fast, over the lowered text (no
# IGNORECASE); who is bound is read before it. "shall not assign", "agrees not to sublet",
# "Not to assign the whole ..." (a covenant in a list), "shall not be assigned", "is not
# transferable".
_NOT_TRANSFER = re.compile(
    rf"(?:can)?not(?P<to>\s+to(?:\s+agree\s+to)?)?(?P<be>\s+be)?{_BEFORE_VERB}{_TRANSFER}\b"
)
_MODAL_BEFORE = re.compile(r"(?:shall|will|may|must)\s*$")
_COVENANT_BEFORE = re.compile(
    rf"\b{_PARTY}\s+(?:(?:hereby|expressly|further)\s+)?(?:agrees?|undertakes?|covenants?)"
    r"(?:\s+and\s+(?:agrees?|undertakes?|covenants?))?\s+$"
)
_STATE_BEFORE = re.compile(r"(?:is|are)\s+$")
_BOUND = re.compile(rf"\b{_PARTY}\s+$")
# "Tenant may assign this Lease ... without Landlord's consent": read before the transfer.
_MAY_BEFORE = re.compile(
    rf"(?<![a-z]){_TENANT.lower()}\s+(?:may|shall\s+have\s+the\s+right\s+to|is\s+entitled\s+to)\s+"
    r"(?:freely\s+)?$"
)
_TRANSFER_WORDS = ("assign", "sublet", "sublease", "sub-let", "underlet", "transfer")
# "Assignment and subletting are prohibited": read before the word.
_CONSENT = re.compile(r"(?i)\b(?:consent\w*|approv\w*)\b")
# A permission on terms set elsewhere ("pursuant to the terms and conditions of ...").
_CONDITIONAL = re.compile(
    r"(?i)\b(?:pursuant|subject|accordance|provided|conditions?|only|if|unless|following)\b"
)
_PROHIBITED_BEFORE = re.compile(
    r"(?:assignments?|subletting|sub-?leases?|transfers?)\b[^.;]{0,60}?\b(?:is|are|shall\s+be)"
    r"\s+(?:strictly\s+|expressly\s+)?(?:not\s+)?$"
)
_WITHOUT_CONSENT = re.compile(
    r"(?i)\bwithout\s+(?:first\s+(?:obtaining|having\s+obtained|securing)\s+)?"
    r"(?:[\w'’,]+\s+){0,6}?(?:consent|approval)\b"
)
_PROHIBITED = re.compile(
    r"(?:assignments?|subletting|sub-?leases?|transfers?)\b[^.;]{0,60}?\b(?:is|are|shall\s+be)"
    r"\s+(?:strictly\s+|expressly\s+)?(?:prohibited|not\s+permitted|forbidden)\b"
)
_QUALIFIED = re.compile(
    r"(?i)\b(?:consent|approv\w*|except\w*|unless|without|provided|permitted|subject|other\s+than"
    r"|save|distinct\s+from\s+the\s+whole)\b"
)
# A transfer of something else than the lease, or by someone else than the tenant.
_NOT_THE_LEASE = re.compile(
    r"(?i)\b(?:options?|right\s+of\s+first|rofr|rofo|refusal|renew\w*|extension|letter\s+of\s+credit|"
    r"guarant\w*|warrant\w*|parking|signage|storage|claims?|proceeds|awards?|insurance)\b"
)
_AFFILIATE = re.compile(
    r"(?i)\b(?:affiliat\w*|subsidiar\w*|parent|merg\w*|consolidat\w*|successor\w*|related|"
    r"controll\w*|permitted\s+transfer\w*|reorgani\w*|acquir\w*|sale\s+of\s+(?:all|substantially))\b"
)
CONSENT_WEIGHT = 0.6
PROHIBITED_WEIGHT = 0.55
PERMITTED_WEIGHT = 0.5


def _sentence(text: str, start: int, end: int, span: tuple[int, int]) -> tuple[int, int]:
    lo, hi = span
    head = sentence_start(text, start, lo, heading=False)
    stop = SENTENCE_END.search(text, end, min(hi, end + SENTENCE_AHEAD))
    return head, stop.start() if stop else min(hi, end + SENTENCE_AHEAD)


def _transfer_rule(
    sentence: str, restricting: bool, prohibits: bool = False
) -> tuple[str, float] | None:
    """What one sentence says of the tenant's transfers, with how plainly it says it."""
    if _NOT_THE_LEASE.search(sentence):
        return None
    if prohibits:
        return None if _QUALIFIED.search(sentence) else ("prohibited", PROHIBITED_WEIGHT)
    if restricting:
        # "without Landlord's prior written consent", "except with the Landlord's consent",
        # "unless Landlord first consents": a restriction that speaks of consent asks for it.
        if _CONSENT.search(sentence):
            return "consent", CONSENT_WEIGHT
        if not _QUALIFIED.search(sentence):
            return "prohibited", PROHIBITED_WEIGHT
        return None
    # "Tenant may assign ... without Landlord's consent", "Tenant may sublet or assign the
    # Demised Premises at any time": a permission that asks for no consent.
    free = _WITHOUT_CONSENT.search(sentence) or not (
        _CONSENT.search(sentence) or _CONDITIONAL.search(sentence)
    )
    if free and not _AFFILIATE.search(sentence):
        return "permitted", PERMITTED_WEIGHT
    return None


def _restrictions(flat: FlatText, span: tuple[int, int]) -> list[tuple[int, int, bool]]:
    """(start, end, prohibits) of each "not" that restricts the tenant's transfers."""
    text, lowered = flat.text, flat.lowered()
    lo, hi = span
    out = []
    for at in flat.places(("not", "cannot"), lo, hi):
        match = _NOT_TRANSFER.match(lowered, at, hi)
        if match is None:
            continue
        before = lowered[max(lo, at - 40) : at]
        modal = _MODAL_BEFORE.search(before)
        if lowered.startswith("cannot", at) or modal:
            head = at - (len(before) - modal.start()) if modal else at
            if not match.group("be") and not _BOUND.search(text, max(lo, head - 40), head):
                continue  # the landlord's, or nobody's
        elif match.group("to"):
            listed = text[at] == "N"  # "Not to assign the whole ..."
            if not listed and not _COVENANT_BEFORE.search(text, max(lo, at - 60), at):
                continue  # "Landlord covenants and agrees not to sell, lease ..."
        elif not (_STATE_BEFORE.search(before) and match.group(0).endswith("able")):
            continue  # "is not transferable", not "who are not assigned full-time"
        out.append((at, match.end(), False))
    return out


def _permissions(flat: FlatText, span: tuple[int, int]) -> list[tuple[int, int]]:
    """(start, end) of each "Tenant may assign"."""
    lowered = flat.lowered()
    lo, hi = span
    out = []
    for at in flat.places(_TRANSFER_WORDS, lo, hi):
        may = _MAY_BEFORE.search(lowered, max(lo, at - 50), at)
        if may is not None:
            out.append((may.start(), at + 6))
    return out


def _prohibitions(flat: FlatText, span: tuple[int, int]) -> list[tuple[int, int]]:
    lowered = flat.lowered()
    lo, hi = span
    out = []
    for at in flat.places(("prohibited", "forbidden", "permitted"), lo, hi):
        before = _PROHIBITED_BEFORE.search(lowered, max(lo, at - 90), at)
        if before is None or (lowered.startswith("permitted", at) and "not" not in before.group(0)):
            continue
        out.append((before.start(), at + len("prohibited")))
    return out


def _stating(text: str, rule: str, head: int, stop: int, start: int, end: int) -> tuple[int, int]:
    """The span that states ``rule``: the restriction or permission and, where it is the
    rule's word, the consent it speaks of ("shall not assign ... without Landlord's prior
    written consent")."""
    words = {"consent": _CONSENT, "permitted": _WITHOUT_CONSENT}.get(rule)
    found = list(words.finditer(text, head, stop)) if words else []
    if not found:
        return start, end
    after = [m for m in found if m.start() >= start]
    if after:
        return start, max(end, after[0].end())
    return found[-1].start(), end


def transfer_cues(flat: FlatText, span: tuple[int, int]) -> list[Cue]:
    """``consent``, ``prohibited`` or ``permitted``, from each sentence on the tenant's
    assigning the lease or subletting the premises."""
    found = [(start, end, True, False) for start, end, _ in _restrictions(flat, span)]
    found += [(start, end, False, False) for start, end in _permissions(flat, span)]
    found += [(start, end, True, True) for start, end in _prohibitions(flat, span)]
    cues: list[Cue] = []
    seen: set[int] = set()
    for start, end, restricting, prohibits in found:
        head, stop = _sentence(flat.text, start, end, span)
        if head in seen:
            continue
        rule = _transfer_rule(flat.text[head:stop], restricting, prohibits)
        if rule is None:
            continue
        seen.add(head)
        start, end = _stating(flat.text, rule[0], head, stop, start, end)
        cues.append(Cue(rule[0], start, end, "transfer clause", rule[1]))
    # A lease that asks for consent anywhere makes that its rule: a prohibition beside it is
    # of a part, a kind or a time ("shall not assign any part ... (as distinct from the
    # whole)").
    if any(c.value == "consent" for c in cues):
        cues = [c for c in cues if c.value != "prohibited"]
    return cues


# -- the guarantor --------------------------------------------------------------------------

_GUARANTOR_LABEL = re.compile(
    r"(?P<label>guarantors?|guaranty|guarantee|lease\s+guarantor)"
    r"(?:\s*\(s\))?\s*[\"”]?\s*(?P<mark>[:.])(?:\s*:)?\s*"
)
# A label is a heading or a summary line's, not a sentence's last word ("the undersigned
# Guarantor.").
_NOT_A_LABEL = re.compile(r"(?i)\b(?:the|any|each|such|said|undersigned|a|an|of|by|to)\s*$")
# Where a labelled name ends before its description: "CF Realty LLC and any party who...".
_NAME_TAIL = re.compile(
    r"(?i)\s+and\s+(?:any|each|all|the|its)\b|,\s*(?:together|jointly|and\s+its)\b"
)
_ROLE_BEFORE = re.compile(
    r"(?i)\b(?:tenant|lessee|sub-?lessee|sub-?tenant|landlord|lessor)\s+(?:and|&)\s*$"
)
# ("Guarantor"), (the "Guarantor"), (whether one or more, hereinafter referred to as "Guarantor").
_GUARANTOR_MARKER = re.compile(r'\((?:[^()"“”]{0,80}?)["“]\s*guarantors?\s*["”]\s*\)')
# A heading's role word before the name ("CONSENT OF GUARANTOR PC MALL, INC.").
_ROLE_FIRST = re.compile(r"(?i)(?:guarantors?|tenant|landlord)\s*:?\s+")
_GUARANTEED_BY = re.compile(r"(?:guaranteed|guarantied)\s+by\s+")
_NOBODY = re.compile(
    r"(?i)^\s*(?:guarant\w*|none\b|n\s*/?\s*a\b|nia\b|not\s+applicable|intentionally|omitted|deleted|tbd\b|"
    r"see\b|as\s+(?:set|defined)|any\b|each\b|the\s+(?:guarant|undersigned))"
)
_NAME_START = re.compile(r"(?:\b(?i:by|and|from|between|of)\s+|[.;:]\s+|^)(?=[A-Z0-9])")
LABEL_WEIGHT = 0.6
SIGNATURE_WEIGHT = 0.5
MARKER_WEIGHT = 0.55
GUARANTEED_BY_WEIGHT = 0.45
NAME_WINDOW = 160


def _name_cue(flat: FlatText, start: int, source: str, weight: float) -> Cue | None:
    text = flat.text[start : start + NAME_WINDOW]
    if _NOBODY.match(text):
        return None
    tail = _NAME_TAIL.search(text)
    text = text[: tail.start()] if tail else text
    name = legal_name(text)
    if name is None:
        return None
    offset = flat.text.find(name, start, start + NAME_WINDOW)
    begin = offset if offset >= 0 else start
    return Cue(name, begin, begin + len(name), source, weight)


def _marked_name(flat: FlatText, marker: re.Match[str], lo: int) -> Cue | None:
    """The name right before ``("Guarantor")``."""
    head = max(lo, marker.start() - NAME_WINDOW)
    lead = flat.text[head : marker.start()]
    starts = [m.end() for m in _NAME_START.finditer(lead)]
    if not starts:
        return None
    begin = head + starts[-1]
    role = _ROLE_FIRST.match(flat.text, begin, marker.start())
    begin = role.end() if role else begin
    name = legal_name(flat.text[begin : marker.start()])
    if name is None:
        return None
    return Cue(name, begin, begin + len(name), "named the guarantor", MARKER_WEIGHT)


def guarantor_cues(flat: FlatText, span: tuple[int, int]) -> list[Cue]:
    """The guarantor's name: after its label, before its defined term, or after
    "guaranteed by"."""
    lo, hi = span
    text = flat.text
    lowered = flat.lowered()
    if lowered.find("guarant", lo, hi) < 0:
        return []
    cues: list[Cue] = []
    for label in _GUARANTOR_LABEL.finditer(lowered, lo, hi):
        if _inside_word(lowered, label.start()):
            continue
        before = text[max(lo, label.start() - 30) : label.start()]
        if _ROLE_BEFORE.search(before) or _NOT_A_LABEL.search(before):
            continue  # "SUBLESSEE and GUARANTOR: ...": whose name is whose?
        upper = text[label.start("label") : label.end("label")].isupper()
        upper = upper and label.group("mark") == ":"
        source, weight = (
            ("guarantor signature block", SIGNATURE_WEIGHT)
            if upper
            else ("guarantor label", LABEL_WEIGHT)
        )
        if (cue := _name_cue(flat, label.end(), source, weight)) is not None:
            cues.append(cue)
    for marker in _GUARANTOR_MARKER.finditer(lowered, lo, hi):
        if (cue := _marked_name(flat, marker, lo)) is not None:
            cues.append(cue)
    for by in _GUARANTEED_BY.finditer(lowered, lo, hi):
        cue = _name_cue(flat, by.end(), "guaranteed by", GUARANTEED_BY_WEIGHT)
        if cue is not None:
            cues.append(cue)
    return cues


# -- the permitted use ----------------------------------------------------------------------

# Matched at each "use" FlatText.places finds, over the lowered text.
_USE_LABEL = re.compile(r"uses?[\"”]?(?:\s+of\s+(?:the\s+)?premises)?\s*[\"”]?\s*[:.]\s+")
_LABEL_WORDS = re.compile(r"(?:permitted|business|type\s+of)\s+$")
# What stands before a label: a section number, a list mark, the end of a sentence.
_LABEL_PLACE = re.compile(r"(?:^|[.;:)\]\d]\s*[\"“]?|^\s*[\"“])$")
# A label's value that is a sentence ("Use. The Premises shall be used ...") is the use
# clause's to read.
_SENTENCE_WORDS = re.compile(r"(?i)\b(?:shall|will|may|must|is|are|be|notwithstanding)\b")
# Matched at, or read before, each "premises".
_USED_AFTER = re.compile(
    r"premises\s+(?:shall|will|may)\s+(?:only\s+)?be\s+(?:used|occupied)\s+"
    r"(?:and\s+(?:occupied|used)\s+)?(?:by\s+[\w'’]+\s+)?"
)
_PREMISES = re.compile(r"premises\s+")
_USE_BEFORE = re.compile(
    r"(?:shall|will|may)\s+(?:only\s+)?use\s+(?:and\s+occupy\s+)?(?:the\s+)?(?:[\w-]+\s+){0,2}?$"
)
_UPPER = re.compile(r"[A-Z]")
_USE_START = re.compile(
    r"(?i)(?:solely|only|exclusively|primarily)?\s*(?:for|as)\s+(?:(?:the|a|an)\s+)?"
    r"(?:(?:purposes?|use)\s+of\s+(?:an?\s+)?)?"
)
# Where the stated use ends: what follows qualifies it.
_USE_END = re.compile(
    r"(?i)[.;]|\s*,?\s*\b(?:and\s+for\s+no\s+other|and\s+(?:for\s+)?no\s+other|and\s+for\s+"
    r"(?:any\s+)?(?:other|related|incidental|ancillary)|including|subject\s+to|in\s+accordance|"
    r"as\s+(?:permitted|set\s+forth|provided)|provided|consistent|in\s+compliance|to\s+the\s+extent|"
    r"which|that|so\s+long|during|together\s+with|all\s+in|in\s+a\s+manner|at\s+all)\b|\s+only\b"
    r"|\s+\(|\s*\[|\s*\d+\.\d+\s|\s+[A-Z][A-Z ]{3,}:"
)
# Not a use: a reference to one stated elsewhere, a sentence, or a blank.
_NOT_A_USE = re.compile(
    r"(?i)^(?:the\s+)?(?:permitted\s+uses?|except\w*|notwithstanding|purposes?\s+(?:set|stated|described|specified)|"
    r"express|any\b|no\b|such\b|its\b|other\b|those\b|uses?\s+(?:set|stated|described)|"
    rf"{_TENANT}\b|landlord|lessor|the\s+(?:tenant|landlord)|this\b|see\b|article|section|_)"
)
USE_CHARS = 100
USE_LABEL_WEIGHT = 0.6
USE_CLAUSE_WEIGHT = 0.55


def _use_cue(flat: FlatText, start: int, hi: int, source: str, weight: float) -> Cue | None:
    text = flat.text
    lead = _USE_START.match(text, start, hi) if source == "use clause" else None
    if source == "use clause" and (lead is None or not lead.group(0).strip()):
        return None
    begin = lead.end() if lead else start
    window = text[begin : min(hi, begin + USE_CHARS + 40)]
    end = _USE_END.search(window)
    use = window[: end.start()] if end else window
    if len(use) > USE_CHARS:
        use = use[:USE_CHARS].rsplit(" ", 1)[0]
    use = use.strip(" ,:-–\"”“'")
    if len(use) < 3 or _NOT_A_USE.match(use) or not re.search(r"[a-z]{3}", use.lower()):
        return None
    if source == "use label" and _SENTENCE_WORDS.search(use):
        return None
    return Cue(use, begin, begin + len(use), source, weight)


def use_cues(flat: FlatText, span: tuple[int, int]) -> list[Cue]:
    """The use the lease permits: after a use label, or in the use clause."""
    lo, hi = span
    lowered = flat.lowered()
    cues: list[Cue] = []
    for at in flat.places(("use",), lo, hi):
        label = _USE_LABEL.match(lowered, at, hi)
        if label is None or not _UPPER.match(flat.text, label.end()):
            continue
        words = _LABEL_WORDS.search(lowered, max(lo, at - 20), at)
        start = words.start() if words else at
        place = flat.text[max(lo, start - 3) : start].rstrip(" ")
        if not _LABEL_PLACE.search(place):
            continue
        cue = _use_cue(flat, label.end(), hi, "use label", USE_LABEL_WEIGHT)
        if cue is not None:
            cues.append(cue)
    for at in flat.places(("premises",), lo, hi):
        used = _USED_AFTER.match(lowered, at, hi)
        if used is None and _USE_BEFORE.search(lowered, max(lo, at - 50), at):
            used = _PREMISES.match(lowered, at, hi)
        if used is None:
            continue
        cue = _use_cue(flat, used.end(), hi, "use clause", USE_CLAUSE_WEIGHT)
        if cue is not None:
            cues.append(cue)
    return cues


def _inside_word(text: str, start: int) -> bool:
    return start > 0 and text[start - 1].isalnum()


def _same_use(a: str, b: str) -> bool:
    return " ".join(a.lower().split()) == " ".join(b.lower().split())


def extract_covenants(document: Document) -> list[RawField]:
    """The transfer clause, the guarantor and the permitted use the main agreement states
    (none of them gates a document: model.py)."""
    if not document.pages:
        return []
    flat = flat_text(document)
    span = primary_span(document)
    fields = (
        resolve("assignment_subletting", transfer_cues(flat, span), flat),
        resolve("guarantor", guarantor_cues(flat, span), flat, same_party),
        resolve("permitted_use", use_cues(flat, span), flat, _same_use),
    )
    return [raw for field in fields if (raw := without_doubts(field)) is not None]
