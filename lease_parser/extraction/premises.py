"""The premises' street address: one line, suite included where stated.

A lease is full of street addresses: the premises, and the parties' notice, payment and
principal-office addresses. We read a street address ("1144 Eastlake Avenue E",
"475-477 Potrero Avenue", "1200 Highway 51") only where the words around it say it is
the premises ("the premises located at", "the building known as", "Premises:",
'"Building" shall mean ...', a cover page's "PREMISES:") and never where they say it is a
party's address ("having an address at", "whose address is", "notices ... to", "c/o").
The city, state and postcode after it (or a "City of X ... State of Y" before it in the same
sentence) and a suite stated in the same premises description complete the line. A complete
address the sentence defines as the premises or their building ('... located at 10 Main
Street, Suite 4, Reno, Nevada 89501 (the "Premises")') is a strong cue on its own.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from lease_parser.extraction.base import RawField
from lease_parser.extraction.clauses import SENTENCE_END, sentence_start
from lease_parser.extraction.cues import Cue, resolve
from lease_parser.extraction.evidence import ASSEMBLED_FEATURE, COMPLETE_FEATURE, add_caveat
from lease_parser.extraction.flat import FlatText, flat_text
from lease_parser.extraction.sections import Agreement, primary_agreement
from lease_parser.parsing.base import Document

_STREET_TYPES = (
    r"Street|St|Avenue|Ave|Road|Rd|Boulevard|Blvd|Drive|Dr|Lane|Ln|Way|Court|Ct|Place|Pl|"
    r"Parkway|Pkwy|Plaza|Circle|Cir|Terrace|Ter|Trail|Square|Sq|Pike|Row|Alley|Expressway|"
    r"Freeway|Turnpike|Highway|Hwy|Crescent|Close|Parade|Esplanade"
)
_DIRECTION = r"(?:N|S|E|W|NE|NW|SE|SW|North|South|East|West)\.?"
STREET = re.compile(
    rf"""(?<![\w$.,-])(?P<number>\d{{1,6}}(?:\s*-\s*\d{{1,6}}(?![\w]))?)(?:\s+|\s*-\s*(?=\d))
    (?:
      (?:Highway|Hwy|Route|Rte|State\s+Road|County\s+Road|U\.?S\.?)\s+\d{{1,4}}\b
      |(?:{_DIRECTION}\s+)?(?:(?!\d+\.\d)(?:[A-Z0-9][\w'.-]*|of|the)\s+){{0,4}}(?:{_STREET_TYPES})\b\.?
        (?:,?\s+(?:(?:NE|NW|SE|SW|[NSEW])\.?(?![\w])|(?:North|South|East|West)(?=\s*[,(\d])))?
    )""",
    re.VERBOSE,
)
_STATES = (
    "Alabama|Alaska|Arizona|Arkansas|California|Colorado|Connecticut|Delaware|Florida|Georgia|"
    "Hawaii|Idaho|Illinois|Indiana|Iowa|Kansas|Kentucky|Louisiana|Maine|Maryland|"
    "Massachusetts|Michigan|Minnesota|Mississippi|Missouri|Montana|Nebraska|Nevada|"
    "New\\s+Hampshire|New\\s+Jersey|New\\s+Mexico|New\\s+York|North\\s+Carolina|North\\s+Dakota|"
    "Ohio|Oklahoma|Oregon|Pennsylvania|Rhode\\s+Island|South\\s+Carolina|South\\s+Dakota|"
    "Tennessee|Texas|Utah|Vermont|Virginia|Washington|West\\s+Virginia|Wisconsin|Wyoming|"
    "District\\s+of\\s+Columbia|Victoria|New\\s+South\\s+Wales|Queensland|Tasmania|"
    "South\\s+Australia|Western\\s+Australia|Ontario|Quebec|British\\s+Columbia|Alberta|"
    "A[LKZR]|C[AOT]|D[EC]|FL|GA|HI|I[DLNA]|K[SY]|LA|M[EDAINSOT]|N[EVHJMYCD]|O[HKR]|PA|RI|"
    "S[CD]|T[NX]|UT|V[TA]|W[AVIY]|VIC|NSW|QLD"
)
_NOT_CITY = (
    r"(?:Landlord|Tenant|Lessor|Lessee|Sublessor|Sublessee|Building|Premises|Suite|Floor|"
    rf"Exhibit|Attention|Attn|Telephone|Phone|The|This|Such|Said|County|{_STREET_TYPES})\b"
)
_TAIL = re.compile(
    rf"""(?P<suite>,?\s*(?:Suite|Ste\.?|Unit|Room|Apt\.?|Apartment|\#)\s*(?:No\s?\.?\s*)?[A-Z0-9-]+)?
    (?:,?\s*(?:in\s+(?:the\s+)?)?(?:City\s+of\s+|Town(?:ship)?\s+of\s+)?
       (?P<city>(?!{_NOT_CITY})(?![A-Z][a-z]+\s+County\b)[A-Z][a-z]+(?:\s+[A-Z][a-z]+){{0,2}}))?
    (?P<county>,?\s*(?:County\s+of\s+[A-Z][a-z]+|[A-Z][a-z]+\s+County))?
    (?:,?\s*(?:(?:State|Commonwealth)\s+of\s+)?(?P<state>(?:{_STATES}))\b\.?)?
    (?:,?\s*(?P<zip>\d{{5}}(?:-\d{{4}})?|\d{{4}})(?!\d))?""",
    re.VERBOSE,
)
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
    r"(?i)\bpremises\s*(?::|\bshall\s+mean\b|\bmeans\b|\bis\b|\bare\b)[^.;:]{0,60}?\bon\s+the\s+"
    r"(?P<floor>(?:first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|ground|"
    r"\d{1,2}(?:st|nd|rd|th))\s+floor)\b"
)
_CITY_BEFORE = re.compile(r"\bCity\s+of\s+(?P<city>[A-Z][a-z]+(?:\s+[A-Z][a-z]+){0,2})")
_STATE_BEFORE = re.compile(rf"\b(?:State|Commonwealth)\s+of\s+(?P<state>{_STATES})\b")

_PREMISES_CONTEXT = re.compile(
    r"(?i)\b(?:premises|demised|sublease\s+space|subleased|leased\s+space|building|property|"
    r"known\s+as|located\s+at|situated|street\s+address|located|land|having\s+an\s+address)\b"
)
_PARTY_CONTEXT = re.compile(
    r"(?i)\b(?:notices?|notify|having\s+(?:an?\s+)?(?:offices?|its)|whose\s+address|"
    r"(?:principal|registered)\s+(?:office|place)|offices?\s+at|c/o|attn|attention|copy\s+to|with\s+a\s+copy|"
    r"payments?|remit|mailing|business\s+address|address\s+of\s+(?:the\s+)?(?:sub)?"
    r"(?:landlord|tenant|lessor|lessee)|(?:landlord|tenant|lessor|lessee)'s\s+address|"
    r"residing|broker|agent)\b"
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
    line: str  # street, suite, city, state postcode
    start: int
    end: int
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


def _address_at(
    flat: FlatText, street: re.Match[str], sentence: tuple[int, str], default: re.Match[str] | None
) -> Address:
    """The address line at ``street``: its own tail, else parts its sentence (flat offset,
    text) or the premises description state, whose spans are kept as ``elsewhere``."""
    at, text = sentence
    tail = _TAIL.match(flat.text, street.end())
    parts = [_clean(street.group(0))]
    elsewhere: list[tuple[int, int]] = []
    suite = tail.group("suite") if tail else None
    if not suite:
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
    city = tail.group("city") if tail else None
    state = tail.group("state") if tail else None
    zip_code = tail.group("zip") if tail and state else None
    if not (city and state):
        city_before = _CITY_BEFORE.search(text)
        state_before = _STATE_BEFORE.search(text)
        if city_before and state_before and not city:
            city, state = city_before.group("city"), state_before.group("state")
            for match in (city_before, state_before):
                elsewhere.append((at + match.start(), at + match.end()))
    city = " ".join(city.split()) if city else None
    state = " ".join(state.split()) if state else None
    parts += [p for p in (city, (state or "") + (f" {zip_code}" if zip_code else "")) if p]
    end = tail.end() if tail and tail.end() > street.end() else street.end()
    found = (_clean(suite) if suite else None, city, state, zip_code)
    line = ", ".join(parts)
    return Address(_clean(street.group(0)), line, street.start(), end, found, tuple(elsewhere))


def _source(flat: FlatText, main: Agreement, street: re.Match[str]) -> tuple[str, float] | None:
    context = _context(flat, street.start())
    near = context[-90:]
    if _PARTY_CONTEXT.search(near) or _ENTITY_ADDRESS.search(near):
        return None
    if _DEFINITION_BEFORE.search(context):
        return "definition", DEFINITION
    if _LABEL_BEFORE.search(near) and (street.start() < main.opener_start or ":" in near):
        return "summary", LABEL
    if _PREMISES_CONTEXT.search(near):
        if main.opener_end and street.start() < main.opener_start:
            return "cover", COVER  # "For certain premises at ...", "PREMISES: ..." on a cover
        return "premises clause", CLAUSE
    return None


def premises_addresses(flat: FlatText, main: Agreement) -> list[tuple[Address, str, float]]:
    """Every street address the agreement states as the premises, with its source."""
    found = []
    suite = premises_suite(flat, main)
    for street in STREET.finditer(flat.text, main.start, main.end):
        source = _source(flat, main, street)
        if source is None:
            continue
        context = _context(flat, street.start(), _SENTENCE)
        sentence = context + flat.text[street.start() : street.end() + 80]
        at = street.start() - len(context)
        found.append((_address_at(flat, street, (at, sentence), suite), *source))
    return found


_ABBREVIATIONS = {
    "north": "n",
    "south": "s",
    "east": "e",
    "west": "w",
    "street": "st",
    "avenue": "ave",
    "road": "rd",
    "boulevard": "blvd",
    "drive": "dr",
    "lane": "ln",
    "court": "ct",
    "place": "pl",
    "parkway": "pkwy",
    "highway": "hwy",
    "suite": "ste",
}


def street_key(line: str) -> str:
    """The street part of an address line, spelled one way ("2430 North Halsted Street" and
    "2430 N. Halsted St." share a key)."""
    match = STREET.search(line)
    words = re.findall(r"[a-z0-9]+", (match.group(0) if match else line).lower())
    return " ".join(_ABBREVIATIONS.get(w, w) for w in words)


def _same_street(a: str, b: str) -> bool:
    return street_key(a) == street_key(b)


_STATE_CODES = dict(
    pair.split(":")
    for pair in (
        "alabama:al alaska:ak arizona:az arkansas:ar california:ca colorado:co connecticut:ct "
        "delaware:de florida:fl georgia:ga hawaii:hi idaho:id illinois:il indiana:in iowa:ia "
        "kansas:ks kentucky:ky louisiana:la maine:me maryland:md massachusetts:ma michigan:mi "
        "minnesota:mn mississippi:ms missouri:mo montana:mt nebraska:ne nevada:nv "
        "newhampshire:nh newjersey:nj newmexico:nm newyork:ny northcarolina:nc northdakota:nd "
        "ohio:oh oklahoma:ok oregon:or pennsylvania:pa rhodeisland:ri southcarolina:sc "
        "southdakota:sd tennessee:tn texas:tx utah:ut vermont:vt virginia:va washington:wa "
        "westvirginia:wv wisconsin:wi wyoming:wy districtofcolumbia:dc victoria:vic "
        "newsouthwales:nsw queensland:qld"
    ).split()
)


def _part_key(part: str) -> str:
    """One spelling of an address part: "Texas" and "TX" are one state."""
    key = re.sub(r"[^a-z0-9]", "", part.lower())
    return _STATE_CODES.get(key, key)


def _disagreements(addresses: list[Address]) -> list[str]:
    """The parts (suite, city, ...) on which statements of the same street disagree."""
    names = ("suite", "city", "state", "postcode")
    out = []
    for index, name in enumerate(names):
        values = {_part_key(part) for part in (a.parts[index] for a in addresses) if part}
        if len(values) > 1:
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
        if STREET.search(before[-45:]) and not _same_street(before[-45:], address.line):
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
        if any(c.source == source and _same_street(c.value, address.line) for c in cues):
            source, weight = "restated", RESTATED
        strong = source != "restated" and _clean_statement(flat, main, address, suite)
        if strong:
            source, weight = "clean premises statement", CLEAN
        cues.append(Cue(address.line, address.start, address.end, source, weight, strong))
    best = resolve("premises_address", cues, flat, _same_street)
    if best is None or best.value is None:
        return []
    same = [a for a, _, _ in found if _same_street(a.line, best.value)]
    fullest = max(same, key=lambda a: len(a.line))
    if fullest.line != best.value:
        # The most complete statement of the same street is the value, and what is cited.
        cited = flat.field(best.name, fullest.line, 0.0, fullest.start, fullest.end, best.notes)
        cited.evidence, cited.doubts = best.evidence, best.doubts
        cited.notes.append("the most complete statement of the same street")
        best = cited
    if fullest.assembled:
        spans = [(fullest.start, fullest.end), *fullest.elsewhere]
        best.inputs = [flat.cited(start, end) for start, end in spans]
        best.evidence[ASSEMBLED_FEATURE] = 1.0
    _, city, state, _ = fullest.parts
    best.evidence[COMPLETE_FEATURE] = 1.0 if city and state else 0.0
    for part in _disagreements(same):
        add_caveat(best, f"statements of the address disagree on the {part}")
    return [best]
