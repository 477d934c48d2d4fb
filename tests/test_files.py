"""Where the lab's files are (imperial_lab.core.files): shipped data read through the package, the
user's files in one folder that is never the install folder."""

from pathlib import Path

from imperial_lab.core import files
from imperial_lab.core.files import HOME_ENV, checkout, data_path, package_path, user_folder

ROOT = Path(__file__).resolve().parents[1]


def test_shipped_data_is_read_through_the_package():
    assert data_path("imperial2030", "board.json") == ROOT / "data" / "imperial2030" / "board.json"
    assert data_path("imperia", "data.json").is_file()
    assert package_path("dashboard", "app.py") == ROOT / "dashboard" / "app.py"


def test_the_user_folder_is_the_environment_variable_first(monkeypatch, tmp_path):
    monkeypatch.setenv(HOME_ENV, str(tmp_path / "mine"))
    assert user_folder() == tmp_path / "mine"
    assert not (tmp_path / "mine").exists()  # named, not made


def test_from_a_checkout_the_user_folder_is_the_checkout(monkeypatch):
    monkeypatch.delenv(HOME_ENV, raising=False)
    assert checkout() == ROOT
    assert user_folder() == ROOT


def test_an_installed_lab_uses_the_platforms_user_data_folder(monkeypatch, tmp_path):
    monkeypatch.delenv(HOME_ENV, raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    monkeypatch.setattr(files, "checkout", lambda: None)
    assert user_folder() == tmp_path / "xdg" / "imperial-lab"
