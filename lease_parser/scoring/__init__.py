"""Scoring: what the core makes of the values extraction read.

- ``normalization``: the raw values typed and validated (money, dates, notice windows);
- ``confidence``: the learned probability that each value is right, and that an unread
  field is not stated (applied with a dot product; ``confidence_model.json`` holds the
  parameters);
- ``calibration``: fitting that model from labels and reviews (needs scikit-learn);
- ``gate``: committed or review, and what a person must check.
"""
