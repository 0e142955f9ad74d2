"""The evaluation harness: abstract a directory of leases and score it against labels.

Scoring follows docs/fields.md. A labels file is ``{file: {field: value | null}}``; a field
labelled ``null`` means the document does not state it (any prediction is a false
positive); a field absent from a document's labels is not scored. Per field we count, over
non-null values, true positives (right), false positives (wrong or spurious) and false
negatives (wrong or missed), so a wrong value costs both precision and recall.

The gate metrics are what the confidence gate is for: *precision at the gate* is the share
of scored values at or above the gate that are right, *recall at the gate* the share of
labelled values that come out right and confident. Both are reported over the core fields
(the targets) and over all fields. Pure: no Celery; the only I/O is reading documents and
the optional parse cache.

- compare.py: whether a value equals its label (the comparison rules);
- scoring.py: the counts, metrics and report of a run;
- runner.py: abstracting every document of a directory, in-sample and cross-validated.
"""

from lease_parser.evaluation.compare import strings_match, token_set_similarity, values_match
from lease_parser.evaluation.runner import (
    Evaluation,
    Extracted,
    document_files,
    evaluate_directory,
    extract_file,
    load_labels,
    parse_with_cache,
)
from lease_parser.evaluation.scoring import (
    DocumentOutcome,
    EvalReport,
    Prediction,
    score_outcomes,
    target_rows,
    unmet_targets,
)

__all__ = [
    "DocumentOutcome",
    "EvalReport",
    "Evaluation",
    "Extracted",
    "Prediction",
    "document_files",
    "evaluate_directory",
    "extract_file",
    "load_labels",
    "parse_with_cache",
    "score_outcomes",
    "strings_match",
    "target_rows",
    "token_set_similarity",
    "unmet_targets",
    "values_match",
]
