"""Fixtures shared across test files."""

import functools
import os
import shutil
import sys
import tempfile

import pytest

from imperial_lab.core.files import HOME_ENV

from tests.lab_fixtures import lab  # noqa: F401  (session fixture: a small catalogue with two runs)

CALL_REPORT = pytest.StashKey[pytest.TestReport]()


@pytest.fixture(autouse=True)
def _keep_main_module():
    """AppTest runs a page as ``__main__`` and leaves it there; a process spawned later in the same
    test process (a Dask worker) would then re-run that page, or a temporary file already deleted,
    instead of starting. Put the real ``__main__`` back after every test."""
    main = sys.modules["__main__"]
    yield
    sys.modules["__main__"] = main


def pytest_addoption(parser):
    parser.addoption("--slow", action="store_true",
                     help="also run the long tests (marked slow): the full property runs over hundreds of games")


def pytest_configure(config):
    """Each test process gets a user folder of its own (imperial_lab.core.files): no test writes a
    catalogue, a run or a saved game into the checkout or the user's own folder."""
    config.addinivalue_line("markers", "slow: a long test (a full property run, a strength check), run only with "
                                       "--slow; the default suite keeps a short run of the same checks")
    config.addinivalue_line("markers", "opens(path, title): the browser tab of the test begins on that page "
                                       "(tests/test_dashboard_browser.py)")
    config.lab_home = os.environ[HOME_ENV] = tempfile.mkdtemp(prefix="imperial-lab-home-")
    _scan_for_components_once()
    _compile_each_page_once()


def _scan_for_components_once():
    """Every new AppTest looks for Streamlit components in the metadata of every installed distribution
    (about 0.2 CPU-seconds, hundreds of times a session: the suite's largest single cost). Nothing is
    installed during a test run, so the first scan's answer holds for every later one."""
    from streamlit.components.v2 import manifest_scanner

    manifest_scanner.scan_component_manifests = functools.cache(manifest_scanner.scan_component_manifests)


def _compile_each_page_once():
    """AppTest compiles the pages it runs afresh in every run (a script cache of the run's own; with
    Streamlit's magic, some 60 ms for the Play page), thousands of times a session, where a server
    compiles each page once. One cache for the session, keyed by a file's path, modification time and
    size, gives the server's behaviour back."""
    from streamlit.runtime.scriptrunner.script_cache import ScriptCache
    from streamlit.testing.v1 import app_test

    compiled: dict = {}

    class SessionScriptCache(ScriptCache):
        def get_bytecode(self, script_path: str):
            stat = os.stat(script_path)
            key = (os.path.abspath(script_path), stat.st_mtime_ns, stat.st_size)
            if key not in compiled:
                compiled[key] = super().get_bytecode(script_path)
            return compiled[key]

    app_test.ScriptCache = SessionScriptCache


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item, call):
    """The report of the test's body kept on the test, so that a fixture can see in its teardown
    whether the test failed (the browser tests then print what the page showed)."""
    report = yield
    if report.when == "call":
        item.stash[CALL_REPORT] = report
    return report


def failed(request) -> bool:
    """Whether the test of ``request`` (a fixture's) failed in its body."""
    report = request.node.stash.get(CALL_REPORT, None)
    return report is not None and report.failed


def pytest_collection_modifyitems(config, items):
    """Without --slow, the tests marked slow are left out (deselected, not skipped)."""
    if config.getoption("--slow"):
        return
    slow = [item for item in items if item.get_closest_marker("slow")]
    if slow:
        config.hook.pytest_deselected(items=slow)
        items[:] = [item for item in items if not item.get_closest_marker("slow")]


def pytest_unconfigure(config):
    shutil.rmtree(config.lab_home, ignore_errors=True)
