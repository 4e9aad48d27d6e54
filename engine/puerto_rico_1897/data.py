"""1897's edition of the Puerto Rico kernel (rules spec §2, §6, §9.3, §10).

The buildings, setup rows, goods, tiles and counts are the classic ones under other names
(D-2, D-8, D-14...D-17: Fruit has Indigo's 12 tiles, 11 crates and price 1); what differs is
here: VP tokens (D-6: 65/75/100/126), coins (D-7: 43 x 1 + 8 x 5 = 83), the structural points of
§6 (the kernel's ``Edition`` flags) and the rule options (each a §10 ambiguity with the
recommended reading first, or an alternative rule of §9.3, off first).
"""

from __future__ import annotations

from typing import Final

from ..puerto_rico.data import BASE_BUILDINGS, CLASSIC_SETUP, Edition, EditionOption

GAME: Final = "puerto-rico-1897"

VP_TOKENS: Final = {2: 65, 3: 75, 4: 100, 5: 126}  # table 2.2 (31 x 1 + 19 x 5 = 126)
COINS: Final = 83  # D-7; the bank is unlimited all the same

OPTIONS: Final = (
    # A-1 / END-2: the game ends once the phase in which a trigger fired is complete; the
    # classic reading (the end of the round) is the alternative
    EditionOption("end_timing", ("phase", "round")),
    # A-28 / CRF-3: each player produces his full amount or declines it; "automatic" is the
    # classic reading (production is taken, never declined)
    EditionOption("production", ("full_or_decline", "automatic")),
    # a Hacienda draw from an empty bag first recycles the property discard (as PLN-6);
    # "none": no draw
    EditionOption("hacienda_empty_bag", ("recycle", "none")),
    # A-21 (X2): the workers of the player count (table 2.2); True: all 100, as in the
    # classic Nobles
    EditionOption("all_workers", (False, True)),
    # A-19 (X3-C): the workers a Lure removes and does not keep are discarded (out of the
    # game); "supply": they go back to the supply
    EditionOption("lure_surplus", ("discard", "supply")),
    # §9.3 alternative rules: in the draft, once one of a pair is on the tray the other is not
    EditionOption("exclusive_villa_jeweler", (False, True)),  # Country House / Tailor
    # (the Hacienda / Lumber Mill pair is the kernel's ``exclusive_forest_house``)
    EditionOption("cost_swap", (False, True)),  # School 7, Factory 8
    EditionOption("alternative_start", (False, True)),  # a Corn starter gets 1 coin less
    EditionOption("tailor_cap", (False, True)),  # the Large Tailor Shop pays at most 3
)

# §7: the expansions by number and the kernel's module each is an edition of (V and VI are
# 1897's own: the kernel's ``festival_activities`` and ``achievements``, modules of this
# edition only); one not built would be refused (``expansion_not_available``)
EXPANSION_MODULES: Final = {
    1: "new_buildings",
    2: "nobles",
    3: "buccaneer",
    4: "festival",
    5: "festival_activities",
    6: "achievements",
}
EXPANSION_NUMBERS: Final = {module: number for number, module in EXPANSION_MODULES.items()}
"""The kernel's module -> 1897's expansion number (the inverse of ``EXPANSION_MODULES``)."""
AVAILABLE_EXPANSIONS: Final = frozenset({1, 2, 3, 4, 5, 6})

EDITION: Final = Edition(
    "1897",
    BASE_BUILDINGS,
    CLASSIC_SETUP,
    VP_TOKENS,
    game=GAME,
    doubloons=COINS,
    options=OPTIONS,
    market_before_start=True,  # SET-5, SET-11
    vp_end_at_captain=True,  # END-T3, D-10
    hospice_either_tile=True,  # B-11, D-13
    wharf_holds_cargo=True,  # B-18, B-31, D-12
    small_wharf_needs_barrels=True,
    draft_red_spaces=False,  # A-36, §6.3
    drafted_production=("jeweler",),  # X2-1: the Large Tailor Shop
    library_second_quarry=True,  # PLN-3, B-33
    distillery_counts_privilege=True,  # B-34
    nobles_1897=True,  # B-38, B-42, A-41
    capture_paid_by_chooser=True,  # X3-D, A-18
    festival_1897=True,  # X4-1, X4-3, A-16
    own_modules=("festival_activities", "achievements"),  # §7.5, §7.6: Expansions V and VI
    option_rules=("puertomas",),  # §8: the automated opponent (``puertoma``)
)
