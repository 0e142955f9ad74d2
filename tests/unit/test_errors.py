"""Every exception this package defines is in errors.py's tree, and each has its answers.

The package is imported module by module and every exception class found is checked, so a
class added anywhere else fails here rather than reaching an API client as a 500.
"""

from __future__ import annotations

import importlib
import inspect
import pkgutil

import lease_parser
from lease_parser import errors
from lease_parser.cli._common import EXIT_CODES, ExitCode, exit_code_for
from lease_parser.web.errors import HTTP_ERRORS

# The web layer's own control flow, never raised past it: a redirect to the sign-in page,
# a refused sign-in page, a missing CSRF token (each has its handler in web/app.py), and the
# HTTP answers themselves (Starlette's HTTPException, which the error table produces).
WEB_CONTROL_FLOW = {"LoginRequired", "SignInRefused", "CsrfFailed", "ApiError", "BodyTooLarge"}


def _modules() -> list[str]:
    found = pkgutil.walk_packages(lease_parser.__path__, prefix="lease_parser.")
    # Imported, these run something: ``python -m lease_parser``, Alembic's migration env.
    # Neither defines an exception.
    skipped = ("lease_parser.__main__", "lease_parser.store.migrations")
    return [m.name for m in found if not m.name.startswith(skipped)]


def _exception_classes() -> dict[str, type[BaseException]]:
    classes: dict[str, type[BaseException]] = {}
    for name in _modules():
        module = importlib.import_module(name)
        for _, cls in inspect.getmembers(module, inspect.isclass):
            if issubclass(cls, BaseException) and cls.__module__ == name:
                classes[f"{name}.{cls.__qualname__}"] = cls
    return classes


def test_every_exception_of_ours_is_defined_in_errors_under_the_root() -> None:
    classes = _exception_classes()
    assert "lease_parser.errors.UnlockRefused" in classes  # the scan sees the whole package
    outside = {
        path
        for path, cls in classes.items()
        if cls.__module__ != "lease_parser.errors" and cls.__name__ not in WEB_CONTROL_FLOW
    }
    assert outside == set(), "define these in lease_parser/errors.py, under LeaseParserError"
    for path, cls in classes.items():
        if cls.__module__ == "lease_parser.errors":
            assert issubclass(cls, errors.LeaseParserError), path


def test_each_error_is_drawn_in_the_tree_and_answered_over_http() -> None:
    ours = [c for c in vars(errors).values() if isinstance(c, type) and issubclass(c, Exception)]
    assert errors.__doc__ is not None
    for cls in ours:
        assert cls.__name__ in errors.__doc__, f"{cls.__name__} is missing from the drawn tree"
        assert cls in HTTP_ERRORS, f"{cls.__name__} has no HTTP status in web/errors.py"


def test_refusals_exit_as_what_they_are() -> None:
    assert exit_code_for(errors.LinkRefused("no such amendment")) == ExitCode.NOT_FOUND
    assert exit_code_for(errors.ItemNotFound("no such item")) == ExitCode.NOT_FOUND
    assert exit_code_for(errors.UnlockRefused("wrong password")) == ExitCode.FAILED
    assert errors.ConfigurationError in EXIT_CODES
