"""Rule, property and scenario tests of classic Puerto Rico and its expansions (rules spec
``docs/rules/puerto-rico.md``)."""
