"""The lab's example bots, shipped as sources (``atut.lab.examples(game_id)`` reads them):
``<game>_start.py`` a documented starting bot, ``<game>_rules.py`` a rule bot and
``<game>_search.py`` a bot that asks our search (``botkit.analyse``).  Each is a plain bot
file (``choose(view)``), exactly what a student writes, loaded with ``atut.load_bot``."""
