"""Where things are in a lease: the main agreement, its summary labels, its defined terms.

A filed lease is often several agreements in one file: a sublease with the master lease
attached, a landlord's consent letter in front of the sublease, a lease followed by its
amendments, forms of SNDA or estoppel as exhibits. Each agreement opens the same way
("THIS SUBLEASE AGREEMENT ... is made and entered into ... by and between"), so we find
the openers, take the first one that is not an ancillary instrument (consent, guaranty,
SNDA, estoppel, memorandum) as the main agreement, and end it where the next agreement
opens. Values stated in the appended agreements are not this document's terms.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from lease_parser.extraction.flat import FlatText, flat_text
from lease_parser.parsing.base import Document, Page

_NOUN = (
    r"(?:LEASE|SUBLEASE|SUB-LEASE|UNDERLEASE|AGREEMENT|AMENDMENT|ADDENDUM|RIDER|GUARANTY|"
    r"GUARANTEE|MODIFICATION|EXTENSION|RENEWAL|LETTER|TERMINATION|SURRENDER|DEED|CONTRACT|"
    r"TENANCY)"
)
_TITLE_WORD = r"(?:[A-Z0-9][\w.,'&/-]*|to|of|and|for)"
OPENER = re.compile(
    rf"""\b(?:THIS|This)\s+
    (?P<title>(?:{_TITLE_WORD}\s+){{0,8}}?(?i:{_NOUN}(?:\s+{_NOUN})?)\b
      (?:\s+(?:No\.?\s*|\#\s*)\d+)?)
    (?:\s*\([^()]{{0,100}}\))?\s*,?\s*
    (?:,?\s*when\s+executed\s+by\s+the\s+parties\s*,\s*)?
    (?:(?i:is|was|are|hereby)\s+){{0,2}}
    (?P<verb>(?i:made|entered|dated|amends|to\s+be\s+an\s+integral\s+part|effective\s+as\s+of
      |(?:by\s+and\s+)?between|among))\b""",
    re.VERBOSE,
)
# An opener names its parties soon after ("... by and between X and Y", "by the following
# parties:").
_PARTIES_FOLLOW = re.compile(r"(?i)\b(?:between|among)\b|\bby\s+the\s+following\s+parties\b")
# "THIS AMENDMENT is made as of June 7, 2023 by ACME CORP ("Landlord")": no "between".
_MADE_BY = re.compile(r"^[^.;()]{0,80}?\b(?i:by)\s+[A-Z0-9][\w.,&'-]*\s+[A-Z0-9&]")
# A residential lease may open "The lease (herein after referred to as the Lease) is made
# this 9/24/23 day, by and between": read as an opener only near the start of a file that
# has no "THIS LEASE" opener there (elsewhere "The Lease was made between" recites one).
FALLBACK_OPENER = re.compile(
    rf"""\b(?:The|THE)\s+
    (?P<title>(?:{_TITLE_WORD}\s+){{0,4}}?(?i:{_NOUN}(?:\s+{_NOUN})?)\b)
    (?:\s*\([^()]{{0,100}}\))?\s*,?\s*
    (?i:is\s+)(?P<verb>(?i:made|entered|dated))\b""",
    re.VERBOSE,
)
_FALLBACK_CHARS = 2000
_PARTIES_WITHIN = 500
_ANCILLARY = re.compile(
    r"(?i)\b(?:consent|guarant(?:y|ee)|estoppel|subordination|non-?disturbance|attornment|"
    r"recognition|memorandum|certificate|letter\s+of\s+credit|declaration|confirmation)\b"
)
# An agreement that changes another lease, or ends it: a termination or a surrender is
# an amendment of that lease for routing (never committed as a lease).
_AMENDMENT_TITLE = re.compile(
    r"(?i)\b(?:amendment|addendum|modification|extension|renewal|letter\s+agreement|"
    r"terminat(?:ion|e|ing)|surrender|cancell?ation)\b"
)
# The heading right above a generic "THIS AGREEMENT": "LEASE TERMINATION AGREEMENT",
# "SURRENDER OF LEASE", "FIRST AMENDMENT TO LEASE" (nothing but a parenthesis after it).
_CHANGES_LEASE_HEADING = re.compile(
    r"(?i)\b(?:(?:(?:early|partial)\s+)?(?:sub-?)?lease\s+(?:termination|surrender|cancell?ation|"
    r"amendment)(?:\s+agreement)?|(?:termination|surrender|cancell?ation)\s+(?:of|to)\s+"
    r"(?:sub-?)?(?:lease|tenancy)(?:\s+agreement)?|(?:\w+\s+)?amendment\s+to\s+(?:sub-?)?lease"
    r"(?:\s+agreement)?|deed\s+of\s+surrender)\b(?=\s*(?:\([^()]{0,80}\)\s*)?$)"
)
# How far back from an opener its own title and heading may sit.
_HEADING_BACK = 160
# A second opener closer than this to the first is a restatement, not a new agreement.
_MIN_AGREEMENT_CHARS = 800


@dataclass(frozen=True)
class Agreement:
    """One agreement in the file: flat span, its opener, and whether it is ancillary."""

    start: int
    end: int
    opener_start: int
    opener_end: int
    title: str
    ancillary: bool

    @property
    def is_amendment(self) -> bool:
        return bool(_AMENDMENT_TITLE.search(self.title))


def _openers(flat: FlatText) -> list[re.Match[str]]:
    found: list[re.Match[str]] = []
    for match in OPENER.finditer(flat.text):
        verb = match.group("verb").lower()
        if not (
            verb.startswith(("amends", "to be", "between", "among", "by"))
            or _PARTIES_FOLLOW.search(flat.text, match.end(), match.end() + _PARTIES_WITHIN)
            or _MADE_BY.match(flat.text[match.end() : match.end() + 200])
        ):
            continue
        if found and match.start() - found[-1].start() < _MIN_AGREEMENT_CHARS:
            continue
        found.append(match)
    if not found or found[0].start() > _FALLBACK_CHARS:
        fallback = FALLBACK_OPENER.search(flat.text, 0, _FALLBACK_CHARS)
        if fallback and _PARTIES_FOLLOW.search(flat.text, fallback.end(), fallback.end() + 300):
            found.insert(0, fallback)
    return found


def _heading_start(flat: FlatText, floor: int, opener: int) -> int:
    """Where an agreement's title begins: a little before its opener, not before the page
    the opener is on (an appended agreement starts on a new page)."""
    start = max(floor, opener - _HEADING_BACK)
    page = flat.page_number(opener)
    while start < opener and flat.page_number(start) != page:
        start += 1
    return start


def agreements(flat: FlatText) -> list[Agreement]:
    """Every agreement the file holds, in order; one spanning everything if none opens."""
    openers = _openers(flat)
    if not openers:
        return [Agreement(0, len(flat.text), 0, 0, "", False)]
    out: list[Agreement] = []
    for index, match in enumerate(openers):
        head = flat.text[max(0, match.start() - _HEADING_BACK) : match.end()]
        start = 0 if index == 0 else _heading_start(flat, out[-1].opener_end, match.start())
        if out:
            out[-1] = replace(out[-1], end=start)
        title = " ".join(match.group("title").split())
        # "THIS SNDA AGREEMENT" names itself; a bare "This Agreement" is named by its heading.
        generic = re.fullmatch(r"(?i)agreement", title) is not None
        ancillary = bool(_ANCILLARY.search(title) or (generic and _ANCILLARY.search(head)))
        heading = _CHANGES_LEASE_HEADING.search(
            flat.text, max(0, match.start() - _HEADING_BACK), match.start()
        )
        if generic and heading is not None:
            title = " ".join(heading.group(0).split())
        out.append(
            Agreement(
                start,
                len(flat.text),
                match.start(),
                match.end(),
                title,
                ancillary,
            )
        )
    return out


def primary_agreement(flat: FlatText) -> Agreement:
    """The main agreement: the first that is not a consent, guaranty, SNDA or the like."""
    return flat.shared("primary agreement", lambda: _primary_agreement(flat))


def _primary_agreement(flat: FlatText) -> Agreement:
    found = agreements(flat)
    main = next((a for a in found if not a.ancillary), found[0])
    if main is found[0]:
        main = replace(main, start=0)
    return main


def primary_span(document: Document) -> tuple[int, int]:
    """Flat ``[start, end)`` of the main agreement of ``document``."""
    main = primary_agreement(flat_text(document))
    return main.start, main.end


def primary_pages(document: Document) -> list[Page]:
    """The pages of the main agreement, with text outside it blanked (offsets unchanged)."""
    flat = flat_text(document)
    start, end = primary_span(document)
    if start == 0 and end >= len(flat.text):
        return list(document.pages)
    return _blanked_pages(flat, document, start, end, keep_all=False)


def agreement_view(document: Document, agreement: Agreement) -> Document:
    """``document`` with only ``agreement``'s text left: every page is kept (numbers and
    offsets unchanged, so what is read from the view is cited in the real pages) and the
    text outside the agreement is blanked."""
    flat = flat_text(document)
    pages = _blanked_pages(flat, document, agreement.start, agreement.end, keep_all=True)
    return replace(document, pages=pages)


def _blanked_pages(
    flat: FlatText, document: Document, start: int, end: int, keep_all: bool
) -> list[Page]:
    first_page, first_offset, _ = flat.locate(start, start + 1)
    last_page, _, last_end = flat.locate(end - 1, end)
    pages = []
    for page in document.pages:
        text = page.text
        if page.number < first_page.number or page.number > last_page.number:
            if keep_all:
                pages.append(replace(page, text=" " * len(text)))
            continue
        if page.number == last_page.number:
            text = text[:last_end] + " " * (len(text) - last_end)
        if page.number == first_page.number:
            text = " " * first_offset + text[first_offset:]
        pages.append(replace(page, text=text))
    return pages


# ---------------------------------------------------------------- labelled values

_LABEL_VALUE_MAX = 200


@dataclass(frozen=True)
class Labelled:
    """A "Label: value" pair from a summary page, a table row or a signature block."""

    label: str
    value: str
    start: int  # flat span of the value
    end: int
    separator: str = ":"  # ":", "." (numbered heading "1.1 Landlord.") or "-"
    label_start: int = -1  # flat offset of the label


def labelled_values(
    flat: FlatText, label: re.Pattern[str], span: tuple[int, int]
) -> list[Labelled]:
    """Values after ``label`` followed by ``:`` or a numbered-heading period, in ``span``.

    ``label`` must match the label text only; the value runs to the next label-like break
    (another "Word:" label, a numbered heading) or ``_LABEL_VALUE_MAX`` characters.
    """
    out = []
    lo, hi = span
    for match in label.finditer(flat.text, lo, hi):
        rest = flat.text[match.end() : min(hi, match.end() + _LABEL_VALUE_MAX + 3)]
        sep = re.match(r"\s*(?::|\.(?=\s)|-\s)\s*", rest)
        if not sep:
            continue
        value_start = match.end() + sep.end()
        value = flat.text[value_start : value_start + _LABEL_VALUE_MAX]
        cut = _next_label(flat, value, value_start)
        if cut is not None:
            value = value[:cut]
        value = value.rstrip(" ;,")
        if value:
            separator = sep.group(0).strip()[:1]
            out.append(
                Labelled(
                    match.group(0),
                    value,
                    value_start,
                    value_start + len(value),
                    separator,
                    match.start(),
                )
            )
    return out


def _next_label(flat: FlatText, value: str, offset: int) -> int | None:
    """Where the next label begins in ``value``.

    A label that starts a line wins (summary pages put each label on its own line). On a
    run-on line the label before a colon is its last word, the words joined to it by "of",
    "and" ... ("ADDRESS OF SUBLESSOR:"), and one more capitalised word unless that word
    closes a name ("Acme Holdings LLC Tenant:" -> "Tenant"; "... Security Deposit:").
    """
    for position in range(1, len(value)):
        if flat.starts_line(offset + position) and _LINE_LABEL.match(value, position):
            return position
    cuts = [m.start() + 1 for m in _HEADING.finditer(value)]
    for colon in _COLON.finditer(value):
        start = _label_start(value, colon.start())
        if start > 0:
            cuts.append(start)
            break
    return min(cuts) if cuts else None


def _label_start(value: str, colon: int) -> int:
    # A label's own note is part of it: "Residents (list all residents):".
    note = re.search(r"\s*\([^()]*\)\s*$", value[:colon])
    if note is not None:
        colon = note.start()
    words = list(re.finditer(r"[\w'’&/-]+\.?", value[:colon]))
    if not words:
        return colon
    i = len(words) - 1
    # Not across a comma: in "Jane Roe and us, the owner/agent:" the label is "owner/agent".
    while (
        i >= 2
        and words[i - 1].group().lower() in _CONNECTORS
        and not re.search(r"[,;]", value[words[i - 2].end() : words[i].start()])
    ):
        i -= 2
    if i >= 1 and words[i].group().lower().rstrip(".") not in _LABELS_ALONE:
        previous = words[i - 1].group()
        gap = value[words[i - 1].end() : words[i].start()]
        closes_name = _SUFFIX_WORD.fullmatch(previous.rstrip(".")) or previous.endswith(".")
        if previous[:1].isupper() and not closes_name and not re.search(r"[,;)]", gap):
            i -= 1
    return words[i].start()


_CONNECTORS = frozenset({"of", "and", "for", "the", "to", "in", "&"})
# Words that are a label on their own: "Jane Roe Resident:" is the name, then the label.
_LABELS_ALONE = frozenset(
    "landlord tenant lessor lessee resident residents owner occupant occupants guarantor "
    "sublandlord subtenant sublessor sublessee".split()
)
_SUFFIX_WORD = re.compile(
    r"(?i)inc|llc|l\.l\.c|lp|l\.p|llp|ltd|corp|corporation|company|co|plc|trust|n\.a"
)
_COLON = re.compile(r":(?!\d)")
_LINE_LABEL = re.compile(
    r"[A-Z0-9(][\w'’.()]*(?:\s+[\w'’]+){0,4}(?:\s*\([^()\n]{0,60}\))?\s*[:.](?!\d)"
)
# Numbered or lettered headings: "1.3 Building.", "(c) Basic Terms".
_HEADING = re.compile(r"\s(?:\d+(?:\.\d+)+\s+[A-Z]|\([a-z]\)\s+[A-Z])")
