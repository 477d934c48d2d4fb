"""Imperial 2030 (Mac Gerdts): the rules, data loading, positions, bots, tables, setups and pages
(``plugin.PLUGIN`` lists what the shared layer may ask for)."""
