"""The premises' street address, told apart from the parties' addresses."""

from __future__ import annotations

import pytest

from lease_parser.extraction.base import RawField
from lease_parser.extraction.evidence import Doubt
from lease_parser.extraction.premises import STREET, extract_premises, street_key
from tests.unit.extraction.lease_text import APARTMENT_FORM, document

FILLER = " The parties agree to the terms below." * 40
PREAMBLE = (
    "THIS LEASE is made as of May 1, 2019, by and between Harbor Point LLC, having an address at "
    '77 Dock Street, Suite 9, Portland, Maine 04101 ("Landlord"), and Nimbus Inc., whose address '
    'is 5 Hill Road, Boston, Massachusetts 02110 ("Tenant"). '
)


def premises(*pages: str) -> str | None:
    found = extract_premises(document(*pages))
    return found[0].value if found else None


def read(*pages: str, ocr: float | None = None) -> RawField:
    found = extract_premises(document(*pages, ocr_confidence=ocr))
    assert found, "no premises address read"
    return found[0]


@pytest.mark.parametrize(
    ("clause", "expected"),
    [
        (
            "Landlord leases to Tenant the premises located at 1450 Granite Avenue, Suite 210, "
            'Denver, Colorado 80202 (the "Premises").',
            "1450 Granite Avenue, Suite 210, Denver, Colorado 80202",
        ),
        (
            "The Premises are situated in the City of Fresno, County of Fresno, State of "
            "California, known as 88-90 Orchard Lane.",
            "88-90 Orchard Lane, Fresno, California",
        ),
        (
            'the building commonly known as 300 W. Market St., Akron, OH 44303 (the "Building").',
            "300 W. Market St, Akron, OH 44303",
        ),
        (
            "certain premises located at 900 Highway 12, in the City of Milton, State of Georgia.",
            "900 Highway 12, Milton, Georgia",
        ),
        (
            'the premises located at 12 SE 9th Ave, Portland, Oregon 97214 (the "Building").',
            "12 SE 9th Ave, Portland, Oregon 97214",
        ),
    ],
)
def test_premises_clauses(clause: str, expected: str) -> None:
    assert premises(PREAMBLE + clause + FILLER) == expected


def test_party_addresses_are_not_the_premises() -> None:
    text = (
        PREAMBLE + "Notices to Landlord shall be sent to 77 Dock Street, Suite 9, Portland, Maine. "
        "Payments shall be made to Harbor Point LLC, c/o Bay Management, 10 Pier Road." + FILLER
    )
    assert premises(text) is None


def test_suite_named_by_the_premises_description() -> None:
    text = (
        PREAMBLE + "1.3 Building. The building located at 41 Lark Drive, Reno, Nevada 89501. "
        "1.5 Premises. Suite No. 305 on the 3rd floor of the Building." + FILLER
    )
    lease = document(text)
    (raw,) = extract_premises(lease)
    assert raw.value == "41 Lark Drive, Suite No. 305, Reno, Nevada 89501"
    # Assembled from two places: each is cited.
    assert raw.evidence["assembled"] == 1
    assert raw.evidence["strong"] == 0
    page = lease.pages[0].text
    cited = [page[c.start : c.end] for c in raw.inputs]
    assert cited == ["41 Lark Drive, Reno, Nevada 89501", "Suite No. 305"]


def test_a_party_suite_in_the_same_sentence_is_not_the_premises_suite() -> None:
    text = (
        "The rider is part of the Lease between Harbor LLC, having an address at 5 Bay Road "
        'Suite 800, Salem, Oregon ("Landlord") and Nimbus Inc. ("Tenant") of premises known as '
        "the ground floor at 19 Crane Street, Salem, Oregon 97301." + FILLER
    )
    # The floor is stated with the street: part of the line (the party's suite is not).
    assert premises(text) == "ground floor, 19 Crane Street, Salem, Oregon 97301"


def test_two_agreeing_statements() -> None:
    cover = "OFFICE LEASE PREMISES: 41 Lark Drive, Reno, Nevada 89501"
    body = (
        PREAMBLE
        + '"Building" shall mean the building known as 41 Lark Drive, Reno, Nevada 89501.'
        + FILLER
    )
    raw = read(cover, body)
    assert raw.value == "41 Lark Drive, Reno, Nevada 89501"
    assert raw.evidence["statements"] >= 2
    assert raw.evidence["kinds"] >= 2
    assert Doubt.RIVAL_VALUE not in raw.doubts


def test_different_premises_streets_conflict() -> None:
    text = (
        PREAMBLE + "the premises located at 41 Lark Drive, Reno, Nevada. "
        '"Building" shall mean the building known as 600 Mesa Road, Reno, Nevada.' + FILLER
    )
    raw = read(text)
    assert raw.value in {"41 Lark Drive, Reno, Nevada", "600 Mesa Road, Reno, Nevada"}
    other = ({"41 Lark Drive, Reno, Nevada", "600 Mesa Road, Reno, Nevada"} - {raw.value}).pop()
    assert raw.evidence["rival_statements"] == 1
    assert f"'{other}'" in raw.doubts[Doubt.RIVAL_VALUE]


def test_blank_form_has_no_address() -> None:
    text = (
        "the premises being and situated at {insert address of property} comprising "
        "{insert square footage} square feet" + FILLER
    )
    assert premises(text) is None


@pytest.mark.parametrize(
    ("a", "b"),
    [("2430 North Halsted Street", "2430 N. Halsted St."), ("5 Elm Avenue E", "5 Elm Ave E")],
)
def test_street_key_spells_one_way(a: str, b: str) -> None:
    assert street_key(a) == street_key(b)


@pytest.mark.parametrize(
    ("text", "streets"),
    [
        ("rent of $1,200 Main Street", []),
        ("an area of 1,500 Park Avenue", []),
        ("at 1144 Eastlake Avenue E, Seattle", ["1144 Eastlake Avenue E"]),
        ("at 475-477 Potrero Avenue", ["475-477 Potrero Avenue"]),
        ("at 4524-50th Street", ["4524-50th Street"]),
        ("at 12 SE 9th Ave and 1200 Highway 51", ["12 SE 9th Ave", "1200 Highway 51"]),
    ],
)
def test_street_addresses(text: str, streets: list[str]) -> None:
    assert [m.group(0) for m in STREET.finditer(text)] == streets


def test_residential_apartment() -> None:
    text = (
        "This Residential Lease Agreement is made on January 5, 2021 between John Smith "
        '("Landlord") and Jane Doe ("Tenant"). Landlord rents to Tenant the property located at '
        '123 Main St, Apt 4B, Springfield, IL 62701 (the "Premises").' + FILLER
    )
    assert premises(text) == "123 Main St, Apt 4B, Springfield, IL 62701"


@pytest.mark.parametrize(
    "clause",
    [
        "Landlord leases to Tenant the premises located at 1450 Granite Avenue, Suite 210, "
        'Denver, Colorado 80202 (the "Premises").',
        "Lessor leases to Lessee approximately 500 square feet of space in the warehouse located "
        'at 1450 Granite Avenue, Suite 210, Denver, Colorado 80202 (the "Building").',
        "Landlord hereby leases to Tenant the store known as 1450 Granite Avenue, Suite 210, "
        'Denver, Colorado 80202, containing approximately 2,400 square feet (the "Premises").',
    ],
)
def test_a_clean_premises_statement_is_a_strong_statement(clause: str) -> None:
    """One complete address the sentence defines as the premises or their building."""
    raw = read(PREAMBLE + clause + FILLER)
    assert raw.value == "1450 Granite Avenue, Suite 210, Denver, Colorado 80202"
    assert raw.evidence["strong"] == 1
    assert raw.evidence["complete"] == 1
    assert raw.evidence.get("assembled", 0) == 0
    assert raw.inputs == []


@pytest.mark.parametrize(
    "clause",
    [
        # no postcode
        "Landlord leases to Tenant the premises located at 1450 Granite Avenue, Denver, Colorado "
        '(the "Premises").',
        # defined as something else
        "Tenant may use the garage located at 1450 Granite Avenue, Denver, Colorado 80202 "
        '(the "Garage").',
        # a second street address in the same sentence
        "Landlord leases to Tenant the premises adjoining 20 Oak Street and located at 1450 "
        'Granite Avenue, Denver, Colorado 80202 (the "Premises").',
    ],
)
def test_a_premises_statement_that_is_not_clean_is_not_strong(clause: str) -> None:
    assert read(PREAMBLE + clause + FILLER).evidence["strong"] == 0


def test_a_suite_named_elsewhere_makes_a_complete_address_assembled() -> None:
    text = (
        PREAMBLE + "1.3 Building. The building located at 41 Lark Drive, Reno, Nevada 89501 "
        '(the "Building"). 1.5 Premises. Suite No. 305 on the 3rd floor of the Building.' + FILLER
    )
    raw = read(text)
    assert raw.value == "41 Lark Drive, Suite No. 305, Reno, Nevada 89501"
    assert raw.evidence["strong"] == 0
    assert raw.evidence["assembled"] == 1
    assert len(raw.inputs) == 2


def test_a_clean_premises_statement_read_by_ocr_is_not_strong() -> None:
    clause = (
        "Landlord leases to Tenant the premises located at 1450 Granite Avenue, Suite 210, "
        'Denver, Colorado 80202 (the "Premises").'
    )
    raw = read(PREAMBLE + clause + FILLER, ocr=95.0)
    assert raw.value == "1450 Granite Avenue, Suite 210, Denver, Colorado 80202"
    assert raw.evidence["strong"] == 0
    assert raw.evidence["ocr"] > 0


def test_a_street_named_with_two_street_words_is_read_whole() -> None:
    text = "Leased Premises: 16155 Park Row Boulevard, Suite 4-150, Houston, Texas 77084"
    assert [m.group(0) for m in STREET.finditer(text)] == ["16155 Park Row Boulevard"]
    assert premises(PREAMBLE + text + FILLER) == (
        "16155 Park Row Boulevard, Suite 4-150, Houston, Texas 77084"
    )


def test_a_state_spelled_two_ways_is_no_disagreement() -> None:
    text = (
        "BASIC LEASE INFORMATION\nBuilding: 16155 Park Row Boulevard, Houston, TX 77084\n"
        "Leased Premises: 16155 Park Row Boulevard, Suite 4-150, Houston, Texas 77084\n" + FILLER
    )
    raw = read(text)
    assert Doubt.CAVEAT not in raw.doubts
    assert not any("disagree" in n for n in raw.notes)


def test_statements_of_one_street_that_disagree_on_the_city_are_a_caveat() -> None:
    text = (
        PREAMBLE + "The premises located at 41 Lark Drive, Reno, Nevada 89501 (the "
        '"Premises"). Tenant shall keep the premises at 41 Lark Drive, Sparks, Nevada 89501 '
        "clean." + FILLER
    )
    raw = read(text)
    assert raw.value.startswith("41 Lark Drive")
    assert raw.doubts[Doubt.CAVEAT] == "statements of the address disagree on the city"
    assert raw.evidence["caveats"] == 1


def test_a_suite_named_far_from_the_premises_label_keeps_the_building_from_being_strong() -> None:
    building = (
        PREAMBLE + "1.1 Building: The building located at 41 Lark Drive, Reno, Nevada 89501 (the "
        '"Building"). '
    )
    suite = (
        "1.2 Premises: Approximately 1,791 rentable square feet of space located on the second "
        "floor of the Building and commonly known as Suite 255, as set forth in Exhibit A. "
    )
    assert read(building + FILLER).evidence["strong"] == 1
    assert read(building + suite + FILLER).evidence["strong"] == 0


def test_a_suite_the_premises_description_states_is_preferred_to_its_floor() -> None:
    text = (
        PREAMBLE + "1.1 Building: The building located at 41 Lark Drive, Reno, Nevada 89501 (the "
        '"Building"). 1.2 Premises: Approximately 1,791 rentable square feet of space located on '
        "the second floor of the Building and commonly known as Suite 255, as set forth in "
        "Exhibit A. " + FILLER
    )
    assert "Second Floor" not in read(text).value


def test_a_county_is_not_read_as_the_city() -> None:
    clause = (
        "Landlord leases to Tenant the premises located at 1179 Center Point Drive, Clark County, "
        'Nevada 89074 (the "Premises").'
    )
    raw = read(PREAMBLE + clause + FILLER)
    assert raw.value == "1179 Center Point Drive, Nevada 89074"
    assert raw.evidence["complete"] == 0  # no city: not a complete address
    assert raw.evidence["strong"] == 0


# ---------------------------------------------------------------- the whole line, in the
# forms residential, English and Canadian leases use (issue 19)


@pytest.mark.parametrize(
    ("clause", "expected"),
    [
        (
            "the premises located at 10 Upton Avenue, Ft. Lauderdale, Florida 33301.",
            "10 Upton Avenue, Ft. Lauderdale, Florida 33301",
        ),
        (
            "the premises located at 7 Olive Street, St. Louis, Missouri 63101.",
            "7 Olive Street, St. Louis, Missouri 63101",
        ),
        (
            "the premises located at 10 Main Street, 4th Floor, Boston, Massachusetts 02110.",
            "10 Main Street, 4th Floor, Boston, Massachusetts 02110",
        ),
        (
            "the premises known as Suite 400, 10 Main Street, Boston, Massachusetts 02110.",
            "Suite 400, 10 Main Street, Boston, Massachusetts 02110",
        ),
        (
            "the premises located at 1031 Hartford Street - Unit 6 Lafayette, IN 47904.",
            "1031 Hartford Street, Unit 6, Lafayette, IN 47904",
        ),
        (
            "the premises located at 8 King Street East, Suite 1802, Toronto, Ontario M5C 1B5.",
            "8 King Street East, Suite 1802, Toronto, Ontario M5C 1B5",
        ),
        (
            "the premises located at 100 Collins Street, Level 5, Melbourne, Victoria 3000.",
            "100 Collins Street, Level 5, Melbourne, Victoria 3000",
        ),
        (
            "the premises located at 13590 SW 134 Avenue, Suites 213 and 214, Miami, Florida.",
            "13590 SW 134 Avenue, Suites 213 and 214, Miami, Florida",
        ),
    ],
)
def test_the_parts_stated_with_the_street_are_read_whole(clause: str, expected: str) -> None:
    assert premises(PREAMBLE + "Landlord leases to Tenant " + clause + FILLER) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "1.1 PARTIES This Lease Contract is between you, the resident: Kara Stone and us, "
            "the owner/agent: Greenbush 64, LLC You've agreed to rent the property located at\n"
            "6009 Arrowhead Boulevard\nKokomo, IN 46902\nfor use as a private residence only.",
            "6009 Arrowhead Boulevard, Kokomo, IN 46902",
        ),
        (
            "RESIDENTIAL LEASE\nResident Name: Jane Doe\nPremises: Apartment No. 755, 755 Dublin "
            "Drive, Pendleton, Indiana 46064\nMonthly Rent: $775.00",
            "Apartment No. 755, 755 Dublin Drive, Pendleton, Indiana 46064",
        ),
        (
            "RESIDENTIAL LEASE\nOwner: Oak Homes LLC\nAddress of Premises: 22 Elm Street, Unit 3, "
            "Columbus, OH 43201\nLease Term: 12 months",
            "22 Elm Street, Unit 3, Columbus, OH 43201",
        ),
        (
            "ASSURED SHORTHOLD TENANCY AGREEMENT\nThe Landlord: Kelaty Propco Limited\n"
            "The Property: Room A, Pavilion Court, 20 First Way, Wembley, London HA9 0PE\n"
            "The Term: 51 weeks",
            "Room A, Pavilion Court, 20 First Way, Wembley, London HA9 0PE",
        ),
        (
            "Tenancy Agreement\n(Tenant)\nKarim Ahmed\nResidence E104:RoomA, Pavilion Court, 20 "
            "First Way, Wembley London, HA9 0PE\nRoom type Classic",
            "E104:RoomA, Pavilion Court, 20 First Way, Wembley London, HA9 0PE",
        ),
        (
            "LR4. Property. 85b on the first floor of 85 Park Drive Milton Park, Abingdon, "
            "Oxfordshire, OX14 4RY shown edged red on the Plan.",
            "85b, first floor, 85 Park Drive, Milton Park, Abingdon, Oxfordshire, OX14 4RY",
        ),
        (
            "Property means the land and buildings at Dansom Lane, Hull HU8 7DS as registered "
            "at the Land Registry.",
            "Dansom Lane, Hull HU8 7DS",
        ),
    ],
)
def test_residential_and_english_forms(text: str, expected: str) -> None:
    assert premises(text + FILLER) == expected


@pytest.mark.parametrize(
    "text",
    [
        # a deposit scheme's address
        "Tenancy Deposit £ 150.00. The Deposit is safeguarded by the Tenancy Deposit Scheme, "
        "which is administered by: West Wing, First Floor, The Maylands Building, 200 Maylands "
        "Avenue, Hemel Hempstead, HP2 7TG Telephone 0300 037 1001.",
        # the property manager's office in a signature block
        "Owner or Owner's Representative (Signs below) Date of Signing Property Manager 101 "
        "Shamrock Circle, Pendleton IN 46064 (765) 778-1177 04/13/2023",
        # an office address in a signature block
        "IN WITNESS WHEREOF the parties have signed. LANDLORD: Oak Homes LLC By: Ann Lee "
        "Title: Manager Address: 1075 Broad Ripple Avenue, Indianapolis, IN 46220",
        # a building address followed by the office's telephone
        "Please contact the leasing office at the building located at 50 Park Road, Reno, "
        "Nevada 89501, telephone (775) 555-0100.",
    ],
)
def test_other_addresses_are_not_the_premises(text: str) -> None:
    assert premises(text + FILLER) is None


def test_a_deposit_scheme_address_does_not_displace_the_premises() -> None:
    text = (
        "The Property: Room A, Pavilion Court, 20 First Way, Wembley, London HA9 0PE\n"
        "The Deposit is safeguarded by the Tenancy Deposit Scheme, which is administered by: "
        "West Wing, First Floor, The Maylands Building, 200 Maylands Avenue, Hemel Hempstead, "
        "HP2 7TG."
    )
    raw = read(text + FILLER)
    assert raw.value == "Room A, Pavilion Court, 20 First Way, Wembley, London HA9 0PE"
    assert raw.evidence["complete"] == 1


def test_a_floor_the_premises_definition_names_joins_the_building_address() -> None:
    text = (
        "1.7 Building means the land situated at 7-11 Finsbury Circus, London EC2M 7DH "
        "together with the building known as River Plate House; 1.35 Premises means those "
        "parts of the sixth floor of the Building shown edged blue on Plan No. 2;"
    )
    raw = read(text + FILLER)
    assert raw.value == "7-11 Finsbury Circus, Sixth Floor, London EC2M 7DH"
    assert raw.evidence["assembled"] == 1
    # Part of a floor: the address is the building's, and a person checks the line.
    assert "part of a floor" in raw.doubts[Doubt.CAVEAT]


def test_a_line_is_completed_with_the_postcode_the_lease_states_with_its_street() -> None:
    clause = (
        PREAMBLE + "Landlord leases the premises having an address of 1450 Larch Street, Easton, "
        'Pennsylvania (the "Premises").' + FILLER
    )
    notices = "Notices to Tenant: 1450 Larch Street, Easton, PA 18042." + FILLER
    raw = read(clause, notices)
    assert raw.value == "1450 Larch Street, Easton, Pennsylvania 18042"
    assert Doubt.CAVEAT not in raw.doubts
    # The postcode is cited where the lease states it.
    assert any("18042" in cited.snippet for cited in raw.inputs)
    # Stated with its postcode in the premises clause itself: the same line.
    whole = read(clause.replace("Pennsylvania (the", "Pennsylvania 18042 (the"), notices)
    assert whole.value == raw.value


def test_an_assembled_line_without_the_postcode_stated_with_its_street_is_a_caveat() -> None:
    # The suite and the city come from elsewhere in the sentence already: one more borrowed
    # part is left to a person.
    clause = (
        PREAMBLE + "Landlord leases Suite No. 1703 in the building located at 1450 Larch Street "
        'in the City of Easton, Commonwealth of Pennsylvania (the "Premises").' + FILLER
    )
    notices = "Notices to Tenant: 1450 Larch Street, Suite 1703, Easton, PA 18042." + FILLER
    raw = read(clause, notices)
    assert "18042" not in raw.value
    assert raw.doubts[Doubt.CAVEAT] == (
        "the lease states this street elsewhere with the postcode 18042"
    )


def test_another_street_s_postcode_is_not_the_premises() -> None:
    clause = (
        PREAMBLE + "Landlord leases the building located at 1450 Larch Street in the City of "
        'Easton, Commonwealth of Pennsylvania (the "Premises").' + FILLER
    )
    notices = "Notices to Tenant: 88 Birch Road, Easton, PA 18045." + FILLER
    assert "18045" not in read(clause, notices).value


def test_a_filled_in_form_states_the_premises_with_captions_under_its_parts() -> None:
    assert (
        premises(APARTMENT_FORM + FILLER)
        == "Apartment No. 12, 480 Meadow Lane, Fairview, Indiana 46012"
    )
