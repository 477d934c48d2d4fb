"""The lab's data files: each game's data, rules text in our own words, lessons and named setups.
Read through ``importlib.resources`` (``imperial_lab.core.files``), so they are found in a checkout and
in an installed wheel alike."""
