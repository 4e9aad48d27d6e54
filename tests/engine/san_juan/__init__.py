"""Rule, property, golden and fuzz tests of San Juan (rules spec ``docs/rules/san-juan.md``)."""
