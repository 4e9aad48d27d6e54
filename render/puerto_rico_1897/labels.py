"""Puerto Rico 1897's words on the images, keyed by the kernel's ids.

The 1897 renderer draws with the Puerto Rico kernel's layouts (:mod:`render.puerto_rico`), which
read a view in the kernel's words; :data:`ENGLISH` is the classic table with every word 1897
says otherwise replaced by the English Special Edition's (rules spec §1, §5: ``indigo`` is
Fruit, ``hospice`` the Hospital, ``mayor`` the Recruiter, doubloons coins, colonists workers,
San Juan the portrait).  The bot passes localized overrides on top, as for every game.
"""

from __future__ import annotations

from ..puerto_rico.labels import ENGLISH as CLASSIC

EDITION: dict[str, str] = {
    # roles (§1)
    "role.settler": "Planter",
    "role.mayor": "Recruiter",
    "role.prospector": "Adventurer",
    "role.buccaneer": "Smuggler",
    # buildings (§5.2-§5.5)
    "building.small_indigo_plant": "Small fruit depot",
    "building.indigo_plant": "Large fruit depot",
    "building.sugar_mill": "Large sugar mill",
    "building.tobacco_storage": "Large tobacco storage",
    "building.coffee_roaster": "Large coffee roaster",
    "building.construction_hut": "Builder's yard",
    "building.hospice": "Hospital",
    "building.university": "School",
    "building.guild_hall": "Fire station",
    "building.aqueduct": "Canal",
    "building.black_market": "Hidden market",
    "building.forest_house": "Lumber mill",
    "building.storehouse": "Depot",
    "building.guest_house": "Shack",
    "building.trading_post": "Merchants' post",
    "building.library": "Press center",
    "building.specialty_factory": "Distillery",
    "building.union_hall": "Assembly hall",
    "building.cloister": "Cathedral",
    "building.statue": "Monument",
    "building.land_office": "Zoning office",
    "building.zoning_office": "Notary",
    "building.hunting_lodge": "Park administration",
    "building.royal_supplier": "Rescue post",
    "building.villa": "Country house",
    "building.jeweler": "Large tailor shop",
    "building.royal_garden": "Town square",
    "short.small_indigo_plant": "Sm. fruit depot",
    "short.tobacco_storage": "Lg. tobacco stor.",
    "short.coffee_roaster": "Lg. coffee roast.",
    "short.construction_hut": "Builder's yard",
    "short.trading_post": "Merch. post",
    "short.specialty_factory": "Distillery",
    "short.hunting_lodge": "Park admin.",
    "short.royal_supplier": "Rescue post",
    "short.zoning_office": "Notary",
    # goods and tiles (D-2: Fruit, green, has Indigo's place)
    "good.indigo": "fruit",
    "letter.indigo": "F",
    "legend.indigo": "fruit",
    "legend.noble": "citizen",
    "legend.noble_san_juan": "citizen on the portrait",
    "legend.doubloons": "coins",
    "legend.san_juan": "on the portrait",
    # phases and prompts
    "phase.settler": "Planter phase",
    "phase.mayor": "Recruiter phase",
    "phase.prospector": "Adventurer",
    "phase.buccaneer": "Smuggler phase",
    "prompt.settle": "take a property",
    "prompt.hospice": "Hospital worker?",
    "prompt.university": "School worker?",
    "prompt.mayor_privilege": "take the extra worker?",
    "prompt.arrange": "place workers",
    "prompt.craft_privilege": "take an extra crate",
    "prompt.produce": "produce or decline",
    "prompt.keep": "choose crates to keep",
    "prompt.sell": "sell a crate",
    "prompt.buccaneer": "choose Raid ship, Plunder, Lure or Hijack",
    "prompt.raid_place": "place the lured workers",
    "prompt.forest": "make the drawn property a forest?",
    "prompt.interlude": "move your workers (Shack)",
    "prompt.festival_workers": "place the Festival's workers",
    "prompt.noble_or_colonist": "take a citizen or a worker",
    "prompt.hunting_lodge": "discard a property? (Park administration)",
    "prompt.royal_supplier": "trade crates for VP? (Rescue post)",
    "prompt.draft": "draft a commercial building",
    "end.colonists": "workers ran out",
    "end.vp_chips": "VP tokens ran out",
    # the table
    "ui.title": "Puerto Rico 1897",
    "ui.colonist_ship": "Agency",
    "ui.private_ships": "Private ships",
    "ui.colonist_supply": "Workers left",
    "ui.vp_chips_left": "VP tokens left",
    "ui.plantations": "Properties",
    "ui.stack": "In the bag",
    "ui.goods_supply": "Crates left",
    "ui.buildings": "Buildings: cost, VP, spaces, copies left",
    "ui.market_price": "Buildings: your price, spaces, VP, copies left",
    "ui.san_juan": "Portrait",
    "ui.no_goods": "no crates",
    "ui.captured": "hijacked",
    # the expansions (§7)
    "module.new_buildings": "I",
    "module.nobles": "II",
    "module.buccaneer": "III",
    "module.festival": "IV",
    "ui.modules": "+ Expansions {list}",
    # the score sheet
    "score.chips": "VP tokens",
    "score.nobles": "Citizens",
    "score.tiebreak_note": "Tie-break: coins + crates left at the end",
}
"""What 1897 says otherwise than the classic table."""

ENGLISH: dict[str, str] = {**CLASSIC, **EDITION}

__all__ = ["EDITION", "ENGLISH"]
