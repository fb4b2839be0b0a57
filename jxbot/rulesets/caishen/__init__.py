"""The 財神 (caishen) ruleset, RULES.md part B: its rules (``rules``), its hooks into the hand
(``hand``), its computer players (``ai``, ``ai_hard``) and the plug-in object (``plugin``)."""
