"""Rule, property, golden and fuzz tests of San Juan (rules spec ``shared/rules/san-juan.md``)."""
