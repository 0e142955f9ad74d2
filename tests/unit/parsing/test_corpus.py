"""Every document of the shared dev corpus parses, and OCRs exactly the pages it should.

The corpus lives beside the repository in CI clones (../shared/corpus/dev); a user's clone
does not have it, and then these tests skip. Problems found here have their own fixtures
and regression tests in test_pdf.py (a page copied from the corpus document), so nothing
else depends on the corpus being present.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from lease_parser.parsing import (
    Document,
    OcrOptions,
    OcrReason,
    PageSource,
    ParseLimits,
    apply_ocr,
    parse_document,
)
from tests.unit.parsing.conftest import CORPUS

pytestmark = pytest.mark.skipif(not CORPUS.is_dir(), reason=f"no corpus at {CORPUS}")

# Pages, and the pages a correct decision OCRs. Before issue 3 the decision also OCR'd
# form_ca p1,3,6,15-19, pa_decatur p95-97, ud_dc p116,121, ud_exicure p87,121 and
# ud_witman p76: text-only pages, which OCR reads back as the same text.
EXPECTED = {
    "cb_sublease_bluecoat_infoblox.pdf": (18, []),
    "cb_sublease_cohen_taberna_phl.pdf": (47, []),
    "cb_sublease_conoco_zymogenetics.docx": (1, []),
    "cb_sublease_crownplaza_exec_suite.pdf": (15, []),
    "cb_sublease_workrise_csdisco.docx": (1, []),
    "dg_shorebucks_nj_office.pdf": (28, []),
    "dg_trutone_lane_1_rider.docx": (1, []),
    "edgar_abor_crc_tucson_amend1_2007.docx": (1, []),
    "edgar_crc_applied_energetics_amend1.pdf": (5, []),
    "edgar_flanders_trilink_amend2.scan.pdf": (4, [1, 2, 3, 4]),
    "edgar_hcp_myriad_termination_ph1.pdf": (5, []),
    "form_ca_commercial_template.pdf": (19, []),
    "form_car_cl_commercial.pdf": (6, []),
    "form_georgia_gba_specimen.pdf": (12, []),
    "gh_united_property_8_king_toronto.pdf": (86, []),
    "jc_podium_warehouse_portland.pdf": (3, []),
    "ll_lifted_liquids_durango_warehouse.pdf": (8, []),
    "ll_pixelworks_san_jose_third_amendment.docx": (1, []),
    "ll_standard_premium_miami_condo.scan.pdf": (8, [1, 2, 3, 4, 5, 6, 7, 8]),
    "lr_ceoc_non_cplv_master_lease.docx": (1, []),
    "lr_corium_kentwood_lease_amendments.docx": (1, []),
    "lr_daystar_bmr_gateway_newark.pdf": (37, []),
    "lr_foundation_medicine_150_second_interim.pdf": (23, []),
    "lr_itg_river_plate_house_uk_underlease.docx": (1, []),
    "lr_netapp_bnp_ground_lease_rtp.pdf": (26, []),
    "lr_reata_gateway_commerce_irving.pdf": (74, []),
    "lr_reckitt_rb_pharma_hull_150yr.pdf": (31, []),
    "lr_summit_milton_park_uk.docx": (1, []),
    "lr_topspin_afsar_global_park_israel.pdf": (39, []),
    "lr_universal_biosensors_au_lease.pdf": (15, []),
    "lr_wni_afservices_renewal.pdf": (4, []),
    "lx_hohman_post_tension.scan.pdf": (8, [1, 2, 3, 4, 5, 6, 7, 8]),
    "lx_nuskin_scrub_oak_master.pdf": (36, []),
    "pa_decatur_tractor_supply.pdf": (102, []),
    "res_in_kokomo_greenbush.pdf": (14, []),
    "res_in_lafayette_ipr_hartford.pdf": (26, []),
    "res_in_pendleton_hamilton_station.pdf": (38, []),
    "res_in_wlafayette_candlelight_lot.pdf": (9, []),
    "res_oh_columbus_204_oakland.pdf": (12, []),
    "ud_blucora_cypress_waters.docx": (1, []),
    "ud_dc_dgs_inlease.pdf": (136, []),
    "ud_exicure_halsted.pdf": (121, []),
    "ud_witman_alexander_road.pdf": (76, []),
    "uk_ast_wembley_pavilion_court_fresh.pdf": (27, []),
}


def _documents() -> list[Path]:
    if not CORPUS.is_dir():
        return []
    return sorted(p for p in CORPUS.iterdir() if p.suffix in (".pdf", ".docx"))


def test_the_expectations_cover_the_whole_corpus() -> None:
    assert sorted(p.name for p in _documents()) == sorted(EXPECTED)


@pytest.mark.parametrize("path", _documents(), ids=lambda p: p.name)
def test_corpus_document_parses(path: Path) -> None:
    document = parse_document(path.read_bytes(), ParseLimits())
    pages, ocr = EXPECTED[path.name]
    assert len(document.pages) == pages
    assert document.pages_needing_ocr == ocr
    assert document.warnings == []
    for page in document.pages:
        assert not any(ch in page.text for ch in "\r\ufffe\u00a0\u00ad")
    assert Document.from_json(document.to_json()) == document


@pytest.mark.slow
def test_the_scanned_lease_is_read_by_ocr() -> None:
    data = (CORPUS / "lx_hohman_post_tension.scan.pdf").read_bytes()
    before = parse_document(data, ParseLimits())
    assert all(p.ocr_reason is OcrReason.SCANNED for p in before.pages)
    after = apply_ocr(before, data, OcrOptions())
    assert all(p.source is PageSource.OCR for p in after.pages)
    assert "HOHMAN" in after.text.upper()
    text_pages = [p for p in after.pages if p.quality.words >= 50]
    assert len(text_pages) == 7  # the last page holds only "Page 7 of 7"
    for page in text_pages:
        assert page.quality.ocr_confidence is not None
        assert page.quality.ocr_confidence > 80
        assert page.quality.dictionary_ratio > 0.3
        assert page.quality.image_coverage == 1.0  # kept from the scanned page
