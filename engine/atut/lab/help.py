"""The lab's help panel: every top-level field of a game's view, in Polish and English, and an
example view from a real position (seeded play of our level-2 bots).

``FIELDS`` holds the fields every game shares (``Game.view``) and those most games have; a
game's own are its ``GameSpec.view_help`` (``atut.games``), which replace a shared description
where the meaning differs.  ``tests/test_lab_python.py`` checks that every key of real views,
in every phase and player count, is described.

    >>> h = view_help("sixty_six")
    >>> h["fields"]["trump"]["en"]
    'The trump suit (S, C, D or H).'
    >>> sorted(h["phases"])
    ['play']
    >>> h["example"]["seat"] == h["example"]["to_move"], "legal_actions" in h["example"]
    (True, True)
"""

from __future__ import annotations

import copy

# key: (English, Polish)
FIELDS = {
    "game": ("The game's id (such as sixty_six; atut.games.ids() lists them).",
             "Identyfikator gry (np. sixty_six; listę podaje atut.games.ids())."),
    "players": ("How many players sit at the table.", "Liczba graczy przy stole."),
    "seat": ("Your seat (0 .. players-1; seats go clockwise, seat+1 is on your left).",
             "Twoje miejsce (0 .. players-1; zgodnie z ruchem wskazówek zegara, seat+1 siedzi "
             "po twojej lewej)."),
    "phase": ("The part of the deal now being played (e.g. bid, play).",
              "Etap rozdania (np. bid — licytacja, play — rozgrywka)."),
    "deal_no": ("The number of the current deal, from 1.", "Numer bieżącego rozdania, od 1."),
    "dealer": ("The dealer's seat in this deal.", "Miejsce rozdającego w tym rozdaniu."),
    "to_move": ("The seat that must act now (you, when choose is called).",
                "Miejsce, które teraz wykonuje ruch (ty, gdy wywołano choose)."),
    "scores": ("The running match totals, one number per seat.",
               "Bieżący wynik meczu, jedna liczba na miejsce."),
    "is_over": ("Whether the game is over.", "Czy gra się skończyła."),
    "winner": ("The winning seat once the game is over, else null.",
               "Zwycięskie miejsce po końcu gry, inaczej null."),
    "options": ("The rule variants in force ({} for the standard rules).",
                "Obowiązujące warianty zasad ({} dla zasad standardowych)."),
    "hand": ("Your cards, as codes: rank + suit (AS, 10H, KD ...).",
             "Twoje karty jako kody: wartość + kolor (AS, 10H, KD ...)."),
    "trump": ("The trump suit (S, C, D or H).", "Kolor atutowy (S, C, D lub H)."),
    "log": ("Everything you have seen happen in this deal, in order: each action with its "
            "seat, tricks, draws, declarations.",
            "Wszystko, co widziałeś w tym rozdaniu, po kolei: każda akcja z miejscem gracza, "
            "lewy, dobrania, meldunki."),
    "legal_actions": ("The actions you may take now: return one of these dicts from choose.",
                      "Akcje, które możesz teraz wykonać: choose zwraca jeden z tych słowników."),
    "trump_card": ("The trump card shown face up, or null.",
                   "Karta atutowa odkryta na stole albo null."),
    "target": ("The score that wins the game.", "Wynik, który wygrywa grę."),
    "leader": ("The seat that led (or leads) the current trick.",
               "Miejsce, które wyszło (lub wychodzi) do bieżącej lewy."),
    "trick": ("The cards played to the current trick, in order: [{seat, card}, ...].",
              "Karty zagrane do bieżącej lewy, po kolei: [{seat, card}, ...]."),
    "last_trick": ("The last finished trick: {cards: [{seat, card}], winner}, or null.",
                   "Ostatnia zakończona lewa: {cards: [{seat, card}], winner} albo null."),
    "seats": ("One entry per seat: cards left in hand, tricks taken and what the table shows "
              "of it (points, bid, badges).",
              "Jeden wpis na miejsce: liczba kart w ręce, wzięte lewy i to, co stół o nim "
              "pokazuje (punkty, licytacja, oznaczenia)."),
    "piles": ("The other piles of cards on the table: {id, cards} when face up, {id, count} "
              "when face down.",
              "Inne stosy kart na stole: {id, cards} gdy odkryte, {id, count} gdy zakryte."),
    "summary": ("Short facts of the deal for the table's sidebar (key + values).",
                "Krótkie fakty o rozdaniu do panelu stołu (klucz + wartości)."),
    "score_sheet": ("The score sheet: column names and one row per deal played.",
                    "Tabela wyników: nazwy kolumn i jeden wiersz na rozegrane rozdanie."),
    "sitting_out": ("The seat that sits out this deal, or null.",
                    "Miejsce, które pauzuje w tym rozdaniu, albo null."),
    "active": ("The seats that play this deal, in order from the dealer's left.",
               "Miejsca grające w tym rozdaniu, po kolei od lewej strony rozdającego."),
    "declarer": ("The seat that won the bidding, or null.",
                 "Miejsce, które wygrało licytację, albo null."),
    "contract": ("The declarer's contract (points to make), or null.",
                 "Kontrakt grającego (punkty do zdobycia) albo null."),
    "high_bid": ("The highest bid so far, or null.", "Najwyższa dotąd licytacja albo null."),
    "given": ("The cards handed out by the declarer that you may see: [{card, to}, ...].",
              "Karty rozdane przez grającego, które możesz znać: [{card, to}, ...]."),
    "marriages": ("The marriages declared in this deal: [{seat, suit, value}, ...].",
                  "Meldunki (pary króla z damą) ogłoszone w tym rozdaniu: [{seat, suit, value}]."),
    "deal_points": ("The points each seat has gained in this deal so far.",
                    "Punkty zdobyte przez każde miejsce w tym rozdaniu."),
    "last_result": ("The result of the previous deal, or null.",
                    "Wynik poprzedniego rozdania albo null."),
}



def describe(game_id: str) -> dict:
    """``{key: {"en", "pl"}}``: the shared descriptions with the game's own over them."""
    from ..games import spec
    both = dict(FIELDS)
    both.update(spec(game_id).view_help)
    return {k: {"en": en, "pl": pl} for k, (en, pl) in both.items()}


def sample_views(game_id: str, players: int | None = None, seeds=range(3), deals: int = 2):
    """Views of the seat to move from seeded games of level-2 bots (``deals`` deals each)."""
    import atut
    for seed in seeds:
        game = atut.new_game(game_id, players=players, seed=seed)
        bots = [atut.make_bot(game_id, 2, seed=seed * 10 + s) for s in range(game.n)]
        while not game.is_over and game.deal_no <= deals:
            v = game.view(game.to_move)
            yield v
            game.apply(bots[game.to_move].choose(v))


def example_view(game_id: str) -> dict:
    """A real view: the first one of seeded play in the play phase with a card on the trick
    and a choice between at least two actions."""
    first = None
    for v in sample_views(game_id, seeds=range(1, 6), deals=1):
        first = first or v
        if v["phase"] == "play" and v.get("trick") and len(v["legal_actions"]) > 1:
            return copy.deepcopy(v)
    return copy.deepcopy(first)                 # pragma: no cover (every game has one)


def view_help(game_id: str) -> dict:
    """``{"game", "fields": {key: {"en", "pl"}}, "phases": {phase: [keys]}, "example"}``:
    only the fields this game's views have (seeded play at the smallest player count; the
    descriptions cover every count), each phase with the keys its views hold."""
    import atut
    atut.game_class(game_id)
    described = describe(game_id)
    phases: dict[str, list] = {}
    for v in sample_views(game_id, seeds=(1, 2), deals=1):
        keys = phases.setdefault(v["phase"], [])
        for k in v:
            if k not in keys:
                keys.append(k)
    present = [k for keys in phases.values() for k in keys]
    fields = {k: described[k] for k in described if k in present}
    return {"game": game_id, "fields": fields, "phases": phases,
            "example": example_view(game_id)}
