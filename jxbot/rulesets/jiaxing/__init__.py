"""The Jiaxing (嘉兴) ruleset, RULES.md part A: the plug-in object (``plugin``)."""
