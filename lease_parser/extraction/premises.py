"""The premises' street address: one line, with the unit, floor, city and postcode stated.

A lease is full of street addresses: the premises, and the parties' notice, payment and
principal-office addresses, a manager's office in a signature block, a deposit scheme's.
We read an address (its shape is extraction/addresses.py's) only where the words around it
say it is the premises ("the premises located at", "the building known as", "Premises:",
'"Building" shall mean ...', a cover page's "PREMISES:", "You've agreed to rent the
property located at", "Address of Premises:", a "Residence" or "The Property" row of
particulars, "85b on the first floor of ...") and never where they say it is someone's
address ("having an address at", "whose address is", "notices ... to", "c/o", "Property
Manager", "administered by", "By: ... Title:") unless words naming the premises come after
those, nor where a telephone number or e-mail follows it. The unit and building before the
street, the suite or floor, city, state and postcode after it (or a "City of X ... State of
Y" before it in the same sentence) and a suite stated in the same premises description
complete the line. A complete address the sentence defines as the premises or their
building ('... located at 10 Main Street, Suite 4, Reno, Nevada 89501 (the "Premises")') is
a strong cue on its own.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from lease_parser.extraction.addresses import (
    NAMED_STREET,
    STATES,
    STREET,
    TAIL,
    UK_POSTCODE,
    part_key,
    prefix_start,
    prefix_text,
    same_street,
    street_key,
)
from lease_parser.extraction.base import RawField
from lease_parser.extraction.clauses import SENTENCE_END, sentence_start
from lease_parser.extraction.cues import Cue, resolve
from lease_parser.extraction.evidence import ASSEMBLED_FEATURE, COMPLETE_FEATURE, add_caveat
from lease_parser.extraction.flat import FlatText, flat_text
from lease_parser.extraction.sections import Agreement, primary_agreement
from lease_parser.parsing.base import Document

_SUITE = re.compile(
    r"\b(?:Suites?|Ste\.?|Units?|Apt\.?|Apartment)\s*(?:No\s?\.?\s*)?(?P<id>[A-Z0-9-]*\d[A-Z0-9-]*"
    r"(?:\s*(?:,\s*(?:and\s+)?|and\s+|&\s*)[A-Z0-9-]*\d[A-Z0-9-]*)*)"
)
# "1.5 Premises. Suite No. 205 on the 2nd floor", "SUBLEASE SPACE: Suite No. 437",
# "Premises: Suite No. 100, 400, and 500": the suite the premises description names.
_PREMISES_SUITE = re.compile(
    r"(?i)\b(?:premises|sublease\s+space|subleased\s+premises|leased\s+space)\b[^.;]{0,40}?"
    r"(?:[:.]\s*|\b(?:known\s+as|being|consisting\s+of|identified\s+as)\s+)"
    r"(?=(?-i:Suite|Ste|Unit|Apt|Apartment))"
)
# "Premises: The space located on the first floor of the Building": a floor the premises
# description names stands in for a suite.
_PREMISES_FLOOR = re.compile(
    r"(?i)\bpremises\s*(?::|\bshall\s+mean\b|\bmeans\b|\bis\b|\bare\b)[^.;:]{0,60}?\b(?:on|of)\s+the\s+"
    r"(?P<floor>(?:first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|ground|"
    r"\d{1,2}(?:st|nd|rd|th))\s+floor)\b"
)
_CITY_BEFORE = re.compile(r"\bCity\s+of\s+(?P<city>[A-Z][a-z]+(?:\s+[A-Z][a-z]+){0,2})")
_STATE_BEFORE = re.compile(rf"\b(?:State|Commonwealth)\s+of\s+(?P<state>{STATES})\b")

_PREMISES_CONTEXT = re.compile(
    r"(?i)\b(?:premises|demised|sublease\s+space|subleased|leased\s+space|building|property|"
    r"known\s+as|located\s+at|situated|street\s+address|located|land|having\s+an\s+address)\b"
)
_PARTY_CONTEXT = re.compile(
    r"(?i)\b(?:notices?|notify|having\s+(?:an?\s+)?(?:offices?|its)|whose\s+address|"
    r"(?:principal|registered)\s+(?:office|place)|offices?\s+at|c/o|attn|attention|copy\s+to|with\s+a\s+copy|"
    r"payments?|remit|mailing|business\s+address|address\s+of\s+(?:the\s+)?(?:sub)?"
    r"(?:landlord|tenant|lessor|lessee)|(?:landlord|tenant|lessor|lessee)'s\s+address|"
    r"residing|broker|agent|manager|management|managing|administered|scheme|custodian|"
    r"head\s+office)\b"
)
# A signature block's office address ("By: ... Title: ... 1075 Broad Ripple Avenue").
_SIGNATURE_CONTEXT = re.compile(
    r"(?i)\b(?:(?:by|title|its)\s*:|(?<!building\s)(?<!property\s)(?<!project\s)name\s*:|"
    r"in\s+witness|signature|signed|date\s+of\s+signing|representative)"
)
# Words that say the address that follows is the premises, whatever came before in the
# sentence ("... the owner/agent: X LLC You've agreed to rent the property located at").
_STRONG_PREMISES = re.compile(
    r"(?i)\b(?:(?:premises|property|apartment|unit|dwelling|house|home|residence|space)\s+"
    r"(?:(?:is|are)\s+)?(?:located|situated)\s+at|"
    r"(?:rent|lease|let|demise)s?\s+(?:\w+\s+){0,3}?(?:the\s+)?(?:property|premises|apartment|"
    r"dwelling|home|house|unit)\b[^.;:]{0,30}?(?:located|situated|known\s+as|at)\b|"
    r"address\s+of\s+(?:the\s+)?(?:leased\s+)?(?:premises|property)|"
    r"(?:premises|property|rental|apartment|unit)\s+address|"
    r"(?:leased\s+|demised\s+|sublease\s+|subleased\s+)?"
    r"(?:premises|property|residence|building|space)\s*(?:address\s*)?:)"
)
# A label at the start of a line right before the address ("Residence E104: Room A, ...",
# "Property Address: 22 Elm Street"): a particulars table or a form's field.
_LINE_LABEL = re.compile(
    r"(?i)\b(?:(?:the\s+)?(?:residence|premises|property|dwelling|rental\s+unit)|"
    r"address\s+of\s+(?:the\s+)?(?:leased\s+)?(?:premises|property)|"
    r"(?:premises|property|rental|apartment|unit)\s+address)\s*:?\s*$"
)
# A phone number or e-mail right after an address: a contact's address, not the premises.
_CONTACT_AFTER = re.compile(
    r"\s*[,;]?\s*(?:\(?\d{3}\)?[\s.-]*\d{3}[\s.-]\d{4}\b|(?i:tel|telephone|phone|fax|e-?mail)\b)"
)
# "ACME LLC, having an address at": a party's address (a building "having an address of"
# is the premises).
_ENTITY_ADDRESS = re.compile(
    r"(?i)(?:\b(?:llc|l\.l\.c|inc|corp\w*|company|ltd|l\.p|trust)\.?|\))\s*,?\s*"
    r"having\s+(?:an?\s+)?address"
)
_LABEL_BEFORE = re.compile(
    r"(?i)(?:\bpremises|\bbuilding(?:\s+name\s+and\s+address)?|\bproperty|\bsublease\s+space|"
    r"\blocation)\b[^.:]{0,60}[:.]\s*(?:[^.:]{0,80})?$"
)
_DEFINITION_BEFORE = re.compile(r'(?i)"(?:building|premises|property|project)"\s+(?:shall\s+)?mean')
# '... Pendleton, Indiana 46064 (the "apartment" or the "premises")': the address defined.
_DEFINED_AFTER = re.compile(
    r'(?i)\s*,?\s*\((?:the\s+|herein\s+)?"(?:premises|apartment|property|unit|dwelling|house)"'
)

CLAUSE = 0.6
# A clean premises statement (see _clean_statement): a strong cue on its own.
CLEAN = 0.85
LABEL = 0.55
COVER = 0.5
DEFINITION = 0.6
RESTATED = 0.3
_WINDOW = 160
_SENTENCE = 450


@dataclass(frozen=True)
class Address:
    street: str
    line: str  # unit or building, street, suite, city, state postcode
    start: int
    end: int
    street_start: int
    parts: tuple[str | None, ...] = (None, None, None, None)  # suite, city, state, postcode
    # Flat spans of parts read from elsewhere than the address itself (a suite named by the
    # premises description, a "City of ... State of ..." earlier in the sentence).
    elsewhere: tuple[tuple[int, int], ...] = ()

    @property
    def assembled(self) -> bool:
        return bool(self.elsewhere)


def _clean(text: str) -> str:
    text = re.sub(r"(?<=\w) ([.,])(?=\s|$)", r"\1", " ".join(text.split()))
    return text.strip(" ,.")


def _suite_in(sentence: str) -> re.Match[str] | None:
    """The last suite in the premises sentence that is not part of a party's own address."""
    found = None
    for suite in _SUITE.finditer(sentence):
        before = sentence[max(0, suite.start() - 80) : suite.start()]
        if _PARTY_CONTEXT.search(before) or STREET.search(before[-45:]):
            continue
        found = suite
    return found


def _context(flat: FlatText, start: int, window: int = _WINDOW) -> str:
    """The text before an address, back to its sentence start (``window`` at most)."""
    before = flat.text[max(0, start - window) : start]
    boundary = list(re.finditer(r"(?<=[a-z)\"]{2})[.;]\s+(?=[A-Z\"(])|;\s", before))
    return before[boundary[-1].end() :] if boundary else before


def premises_suite(flat: FlatText, main: Agreement) -> re.Match[str] | None:
    """The suite (or else the floor) the premises description names, if it names one."""
    for label in _PREMISES_SUITE.finditer(flat.text, main.start, main.end):
        suite = _SUITE.match(flat.text, label.end())
        if suite and not _PARTY_CONTEXT.search(_context(flat, label.start())[-60:]):
            return suite
    floor = _PREMISES_FLOOR.search(flat.text, main.start, main.end)
    if floor is None:
        return None
    # "... on the second floor of the Building and commonly known as Suite 255": the suite.
    stop = SENTENCE_END.search(flat.text, floor.end(), main.end)
    suite = _SUITE.search(flat.text, floor.end(), stop.start() if stop else main.end)
    return suite or floor


def _suite_text(match: re.Match[str]) -> str:
    floor = match.groupdict().get("floor")
    return floor.title() if floor else match.group(0)


def _tail_parts(tail: re.Match[str] | None) -> tuple[str | None, str | None, str | None]:
    """City, state and postcode an address states after its street (and suite): a US
    "City, State ZIP", or localities before an English postcode."""
    if tail is None:
        return None, None, None
    if tail.group("postcode"):
        return _clean(tail.group("localities")), None, " ".join(tail.group("postcode").split())
    city, state = tail.group("city"), tail.group("state")
    zip_code = tail.group("zip") if state else None
    return (
        " ".join(city.split()) if city else None,
        " ".join(state.split()) if state else None,
        zip_code,
    )


def _address_at(
    flat: FlatText, street: re.Match[str], sentence: tuple[int, str], default: re.Match[str] | None
) -> Address:
    """The address line at ``street``: the unit or building stated just before it, its own
    tail, else parts its sentence (flat offset, text) or the premises description state,
    whose spans are kept as ``elsewhere``."""
    at, text = sentence
    begin = prefix_start(flat.text, street.start())
    prefix = prefix_text(flat.text[begin : street.start()]) if begin < street.start() else ""
    tail = TAIL.match(flat.text, street.end())
    parts = [prefix] if prefix else []
    parts.append(_clean(street.group(0)))
    elsewhere: list[tuple[int, int]] = []
    suite = _clean(tail.group("suite").strip(" ,-")) if tail and tail.group("suite") else None
    suite = suite or None
    if not suite and not prefix:
        in_sentence = _suite_in(text)
        if in_sentence:
            suite = in_sentence.group(0)
            elsewhere.append((at + in_sentence.start(), at + in_sentence.end()))
        elif default:
            suite = _suite_text(default)
            elsewhere.append(
                default.span("floor") if "floor" in default.groupdict() else default.span()
            )
    if suite:
        parts.append(_clean(suite))
    city, state, postcode = _tail_parts(tail)
    if not (city and (state or postcode)):
        city_before = _CITY_BEFORE.search(text)
        state_before = _STATE_BEFORE.search(text)
        if city_before and state_before and not city:
            city, state = city_before.group("city"), state_before.group("state")
            state = " ".join(state.split())
            for match in (city_before, state_before):
                elsewhere.append((at + match.start(), at + match.end()))
    if tail and tail.group("postcode"):  # "Wembley, London HA9 0PE", as the lease writes it
        parts.append(_clean(flat.text[tail.start("localities") : tail.end("postcode")]))
    else:
        parts += [p for p in (city, " ".join(p for p in (state, postcode) if p)) if p]
    end = tail.end() if tail and tail.end() > street.end() else street.end()
    found = (suite or prefix or None, city, state, postcode)
    line = ", ".join(p.strip() for p in parts)
    return Address(
        _clean(street.group(0)), line, begin, end, street.start(), found, tuple(elsewhere)
    )


def _last(pattern: re.Pattern[str], text: str) -> re.Match[str] | None:
    found = None
    for match in pattern.finditer(text):
        found = match
    return found


def _not_the_premises(near: str) -> bool:
    """A party's, a manager's, a deposit scheme's or a signature block's address, unless
    words that name the premises come after what names the other ("... the owner/agent:
    X LLC. You've agreed to rent the property located at ...")."""
    other = [
        m.end()
        for m in (
            _last(_PARTY_CONTEXT, near),
            _last(_ENTITY_ADDRESS, near),
            _last(_SIGNATURE_CONTEXT, near),
        )
        if m
    ]
    if not other:
        return False
    strong = _last(_STRONG_PREMISES, near)
    return strong is None or strong.start() < max(other)


# "85b on the first floor of 85 Park Drive": a unit described by its floor is let space.
_ON_FLOOR_OF = re.compile(r"(?i)\bon\s+the\s+\S+(?:\s+\S+)?\s+floors?\s+of\s*$")


def _source(flat: FlatText, main: Agreement, address: Address) -> tuple[str, float] | None:
    start, end = address.start, address.end
    context = _context(flat, start)
    near = context[-90:]
    if _not_the_premises(near) or _CONTACT_AFTER.match(flat.text, end):
        return None
    if _ON_FLOOR_OF.search(flat.text, start, address.street_start):
        return "premises clause", CLAUSE
    if _DEFINITION_BEFORE.search(context) or _DEFINED_AFTER.match(flat.text, end):
        return "definition", DEFINITION
    label = _LINE_LABEL.search(near)
    if label and flat.starts_line(start - len(near) + label.start()):
        return "summary", LABEL
    if _LABEL_BEFORE.search(near) and (start < main.opener_start or ":" in near):
        return "summary", LABEL
    if _PREMISES_CONTEXT.search(near) or _STRONG_PREMISES.search(near):
        if main.opener_end and start < main.opener_start:
            return "cover", COVER  # "For certain premises at ...", "PREMISES: ..." on a cover
        return "premises clause", CLAUSE
    return None


def _streets(flat: FlatText, main: Agreement) -> list[re.Match[str]]:
    """Every numbered street in the agreement, and every English street without a number
    that a postcode follows ("Mill Lane, Leeds LS2 7QT")."""
    found = list(STREET.finditer(flat.text, main.start, main.end))
    for named in _named_streets(flat, main):
        tail = TAIL.match(flat.text, named.end())
        if tail is None or not tail.group("postcode"):
            continue
        if re.search(r"\d\s*$", flat.text[max(0, named.start() - 3) : named.start()]):
            continue  # the name of a numbered street
        if not any(s.start() <= named.start() < s.end() for s in found):
            found.append(named)
    return sorted(found, key=lambda m: m.start())


_POSTCODE = re.compile(rf"\b{UK_POSTCODE}\b")
# A named street is at most this far before its postcode ("Mill Lane, Leeds LS2 7QT").
_NAMED_REACH = 120


def _named_streets(flat: FlatText, main: Agreement) -> list[re.Match[str]]:
    """Streets without a number, looked for only before an English postcode (cheap to find)."""
    found: list[re.Match[str]] = []
    for postcode in _POSTCODE.finditer(flat.text, main.start, main.end):
        lo = max(main.start, postcode.start() - _NAMED_REACH, found[-1].end() if found else 0)
        found += NAMED_STREET.finditer(flat.text, lo, postcode.start())
    return found


def premises_addresses(flat: FlatText, main: Agreement) -> list[tuple[Address, str, float]]:
    """Every street address the agreement states as the premises, with its source."""
    found = []
    suite = premises_suite(flat, main)
    for street in _streets(flat, main):
        context = _context(flat, street.start(), _SENTENCE)
        sentence = context + flat.text[street.start() : street.end() + 80]
        at = street.start() - len(context)
        address = _address_at(flat, street, (at, sentence), suite)
        source = _source(flat, main, address)
        if source is not None:
            found.append((address, *source))
    return found


def _disagreements(addresses: list[Address]) -> list[str]:
    """The parts (suite, city, ...) on which statements of the same street disagree."""
    names = ("suite", "city", "state", "postcode")
    out = []
    for index, name in enumerate(names):
        values = {part_key(part) for part in (a.parts[index] for a in addresses) if part}
        # One statement naming more localities ("Kings Park, Wantage") is no disagreement.
        if any(a not in b and b not in a for a in values for b in values):
            out.append(name)
    return out


# The address defines the premises or their building right after its postcode, or after
# the premises' area ("..., containing approximately 2,400 square feet (the "Premises")").
_DEFINES_PREMISES = re.compile(
    r"(?i)\s*,?\s*(?:(?:containing|consisting\s+of|comprising|comprised\s+of)\s+[^()\";.]{0,100}?"
    r"\b(?:square\s+f(?:ee|oo)t|sq\.?\s*ft\.?|rsf)\b[^()\";.]{0,60}?)?"
    r'\(\s*(?:the\s+|this\s+)?"(?:(?:leased|demised|sub-?leased|sublease)\s+)?'
    r'(?:premises|building|property)"\s*\)'
)


def _clean_statement(
    flat: FlatText, main: Agreement, address: Address, suite: re.Match[str] | None
) -> bool:
    """ "... the building located at 10 Main Street, Suite 400, Reno, Nevada 89501 (the
    "Premises")": one complete address (street, city, state and postcode, all read in one
    run, none assembled from elsewhere) that the sentence defines as the premises or their
    building, no other street address in that sentence, and no suite of the premises left
    out. Each statement of this shape seen so far (development corpus, samples) was the
    labelled address; it is the least measured of the strong cues: the public leases
    spot-checked usually state the address without a postcode or a defining term."""
    _, city, state, postcode = address.parts
    if address.assembled or not (city and state and postcode):
        return False
    if not _DEFINES_PREMISES.match(flat.text, address.end):
        return False
    if suite and re.sub(r"\W", "", _suite_text(suite)) not in re.sub(r"\W", "", address.line):
        return False
    if _suite_left_out(flat, main, address):
        return False
    sentence = sentence_start(flat.text, address.start, heading=False)
    return STREET.search(flat.text, sentence, address.start) is None


def _suite_left_out(flat: FlatText, main: Agreement, address: Address) -> bool:
    """A suite the agreement names outside a party's address that the line does not hold
    ("... commonly known as Suite 255"): the complete address may be the building's only."""
    line = re.sub(r"\W", "", address.line)
    for suite in _SUITE.finditer(flat.text, main.start, main.end):
        before = flat.text[max(0, suite.start() - 80) : suite.start()]
        if _PARTY_CONTEXT.search(before) or _ENTITY_ADDRESS.search(before):
            continue
        if STREET.search(before[-45:]) and not same_street(before[-45:], address.line):
            continue  # part of another address line
        if re.sub(r"\W", "", suite.group(0)) not in line:
            return True
    return False


def extract_premises(document: Document) -> list[RawField]:
    flat = flat_text(document)
    main = primary_agreement(flat)
    found = premises_addresses(flat, main)
    suite = premises_suite(flat, main)
    cues: list[Cue] = []
    for address, source, weight in found:
        # The same street stated again in another premises sentence: a restatement.
        if any(c.source == source and same_street(c.value, address.line) for c in cues):
            source, weight = "restated", RESTATED
        strong = source != "restated" and _clean_statement(flat, main, address, suite)
        if strong:
            source, weight = "clean premises statement", CLEAN
        cues.append(Cue(address.line, address.start, address.end, source, weight, strong))
    best = resolve("premises_address", cues, flat, same_street)
    if best is None or best.value is None:
        return []
    same = [a for a, _, _ in found if same_street(a.line, best.value)]
    # The most complete statement of the same street is the value, and what is cited: one
    # that states the whole line itself before one assembled from parts stated elsewhere.
    fullest = _with_postcode(flat, max(same, key=lambda a: (len(a.line), not a.assembled)))
    if fullest.line != best.value or not fullest.assembled:
        cited = flat.field(best.name, fullest.line, 0.0, fullest.start, fullest.end, best.notes)
        cited.evidence, cited.doubts = best.evidence, best.doubts
        if fullest.line != best.value:
            cited.notes.append("the most complete statement of the same street")
        best = cited
    if fullest.assembled:
        spans = [(fullest.start, fullest.end), *fullest.elsewhere]
        best.inputs = [flat.cited(start, end) for start, end in spans]
        best.evidence[ASSEMBLED_FEATURE] = 1.0
    _, city, state, postcode = fullest.parts
    best.evidence[COMPLETE_FEATURE] = 1.0 if city and (state or postcode) else 0.0
    _add_caveats(flat, best, same, fullest)
    return [best]


def _add_caveats(flat: FlatText, best: RawField, same: list[Address], fullest: Address) -> None:
    """What leaves the line read open though the model may trust it."""
    for part in _disagreements(same):
        add_caveat(best, f"statements of the address disagree on the {part}")
    if _part_of_a_floor(flat, fullest):
        add_caveat(best, "the premises are part of a floor: the line is the building's address")
    if not fullest.parts[3] and (stated := _postcode_stated_elsewhere(flat, fullest.line)):
        add_caveat(best, f"the lease states this street elsewhere with the postcode {stated[0]}")


def _with_postcode(flat: FlatText, address: Address) -> Address:
    """The line completed with the postcode the lease states with the same street elsewhere
    (a notice address, the particulars), when the line, read whole from one statement, has
    its city but no postcode: the premises' whole address is what the lease states. A line
    already assembled from parts stated apart is not stretched further (its postcode stays a
    caveat): each borrowed part is another chance of joining two statements that differ."""
    suite, city, state, postcode = address.parts
    if postcode or not city or address.assembled:
        return address
    stated = _postcode_stated_elsewhere(flat, address.line)
    if stated is None:
        return address
    code, start, end = stated
    return replace(
        address,
        line=f"{address.line} {code}" if state else f"{address.line}, {code}",
        parts=(suite, city, state, code),
        elsewhere=(*address.elsewhere, (start, end)),
    )


def _postcode_stated_elsewhere(flat: FlatText, line: str) -> tuple[str, int, int] | None:
    """A postcode the lease states with the same street elsewhere, and where (the whole
    text's streets and their postcodes are read once per document)."""
    return _postcodes_by_street(flat).get(street_key(line))


def _postcodes_by_street(flat: FlatText) -> dict[str, tuple[str, int, int]]:
    def compute() -> dict[str, tuple[str, int, int]]:
        found: dict[str, tuple[str, int, int]] = {}
        for street in STREET.finditer(flat.text):
            tail = TAIL.match(flat.text, street.end())
            _, _, postcode = _tail_parts(tail)
            if tail is not None and postcode:
                start, end = tail.span("postcode" if tail.group("postcode") else "zip")
                found.setdefault(street_key(street.group(0)), (postcode, start, end))
        return found

    return flat.shared("postcodes by street", compute)


def _part_of_a_floor(flat: FlatText, address: Address) -> bool:
    """ "Premises means those parts of the sixth floor of the Building": the floor joined
    the building's address from a description that lets only part of it."""
    return any(
        re.search(r"(?i)\bparts?\s+of\s+the\s+$", flat.text[max(0, start - 20) : start])
        for start, _ in address.elsewhere
    )


# STREET and street_key are the address grammar's: re-exported for their older callers.
__all__ = ["STREET", "extract_premises", "premises_addresses", "premises_suite", "street_key"]
