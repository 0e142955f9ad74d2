"""A lease travels the whole way on real parts: redis-server, a celery worker process, OCR."""

from __future__ import annotations

import hashlib
import io

from docx import Document as Docx

from lease_parser.local import WorkerProcess
from lease_parser.pipeline.submit import submit_document
from tests.integration.conftest import SAMPLES, Pipeline
from tests.unit.extraction.test_amendment import AMENDMENT, FILLER, LEASE


def _submit_sample(pipeline: Pipeline, name: str, key: str | None = None) -> str:
    data = (SAMPLES / name).read_bytes()
    key = key or f"incoming/{name}"
    pipeline.put(key, data)
    receipt = submit_document(pipeline.app, key)
    assert receipt.doc_hash == hashlib.sha256(data).hexdigest()
    return receipt.doc_hash


def test_text_pdf_docx_and_scan_reach_a_final_state_with_their_values(
    pipeline: Pipeline, worker: WorkerProcess
) -> None:
    office = _submit_sample(pipeline, "harbor_point_office_lease.pdf")
    sublease = _submit_sample(pipeline, "riverside_sublease_tracked_changes.docx")
    scan = _submit_sample(pipeline, "elm_street_lease.scan.pdf")

    row = pipeline.wait_final(office)
    assert row.state in ("committed", "review")
    assert row.fields is not None
    assert row.fields["tenant"]["value"] == "BLUEFIN ANALYTICS, INC."
    assert row.fields["term_months"]["value"] == 63
    assert row.fields["security_deposit"]["value"] == "48125.00"
    assert row.fields["security_deposit"]["provenance"]["page"] == 1

    row = pipeline.wait_final(sublease)
    assert row.fields is not None
    # The tracked change replaced $9,750.00 by $10,400.00: the accepted text wins.
    assert row.fields["base_rent_monthly"]["value"] == "10400.00"
    assert row.fields["landlord"]["value"] == "Northwind Logistics Corp."

    row = pipeline.wait_final(scan, timeout=240)
    assert row.ocr_pages == 1
    assert row.fields is not None
    assert row.fields["base_rent_monthly"]["value"] == "4200.00"
    assert row.fields["security_deposit"]["value"] == "8400.00"
    # The OCR text was stored under the content hash, not sent through Redis.
    assert pipeline.runtime.objects.exists(f"derived/{scan[:2]}/{scan}/ocr-document.json")


def test_a_lease_followed_by_eight_amendments_is_read_whole_by_reference(
    pipeline: Pipeline, worker: WorkerProcess
) -> None:
    # The extraction of a lease and eight amendments outgrows a message (~150 KB against
    # the 50 KB cap): it reaches normalization by reference, and no amendment is dropped.
    ordinals = "FIRST SECOND THIRD FOURTH FIFTH SIXTH SEVENTH EIGHTH".split()
    docx = Docx()
    docx.add_paragraph(LEASE)
    for year, ordinal in enumerate(ordinals, start=2027):
        docx.add_page_break()
        amendment = AMENDMENT.replace("SECOND", ordinal).replace("2031", str(year))
        docx.add_paragraph(amendment + FILLER)
    buffer = io.BytesIO()
    docx.save(buffer)
    pipeline.put("incoming/lease-and-amendments.docx", buffer.getvalue())
    doc_hash = submit_document(pipeline.app, "incoming/lease-and-amendments.docx").doc_hash
    row = pipeline.wait_final(doc_hash)
    assert row.state == "review"  # a lease with amendments in its file goes to a person
    assert [a["title"] for a in row.amendments or []] == [
        f"{ordinal} AMENDMENT TO LEASE" for ordinal in ordinals
    ]
    last = (row.amendments or [])[-1]["fields"]["expiration_date"]["value"]
    assert last == "2034-03-31"
    key = f"derived/{doc_hash[:2]}/{doc_hash}/extraction.json"
    assert pipeline.runtime.objects.exists(key)


def test_a_corrupt_upload_is_dead_with_its_reason_and_a_dead_letter(
    pipeline: Pipeline, worker: WorkerProcess
) -> None:
    doc_hash = _submit_sample(pipeline, "truncated_upload.pdf")
    row = pipeline.wait_final(doc_hash)
    assert (row.state, row.reason) == ("dead", "corrupt")
    from lease_parser.deadletter import get_dead_letter

    letter = get_dead_letter(pipeline.runtime.redis, doc_hash)
    assert letter is not None
    assert letter.reason == "corrupt"
    assert letter.payload["doc_key"] == "incoming/truncated_upload.pdf"


def test_same_content_twice_is_committed_once(pipeline: Pipeline, worker: WorkerProcess) -> None:
    data = (SAMPLES / "maple_grove_retail_lease.pdf").read_bytes()
    pipeline.put("a/retail.pdf", data)
    pipeline.put("b/retail-copy.pdf", data)
    first = submit_document(pipeline.app, "a/retail.pdf")
    second = submit_document(pipeline.app, "b/retail-copy.pdf")
    assert first.doc_hash == second.doc_hash
    pipeline.wait_submissions_done([first.task_id, second.task_id])
    store = pipeline.runtime.store
    states = sorted(store.submission(t).state for t in (first.task_id, second.task_id))  # type: ignore[union-attr]
    assert states == ["duplicate", "processed"]
    assert (
        store.commit_events(first.doc_hash)
        + int(
            store.document(first.doc_hash).state == "review"  # type: ignore[union-attr]
        )
        == 1
    )


def test_same_key_new_content_is_a_second_distinct_record(
    pipeline: Pipeline, worker: WorkerProcess
) -> None:
    key = "incoming/lease.pdf"
    v1 = _submit_sample(pipeline, "harbor_point_office_lease.pdf", key)
    pipeline.wait_final(v1)
    v2 = _submit_sample(pipeline, "maple_grove_retail_lease.pdf", key)
    pipeline.wait_final(v2)
    store = pipeline.runtime.store
    first, second = store.document(v1), store.document(v2)
    assert first is not None
    assert second is not None
    assert v1 != v2
    assert (first.doc_key, first.key_version) == (key, 1)
    assert (second.doc_key, second.key_version) == (key, 2)
    assert first.fields != second.fields
