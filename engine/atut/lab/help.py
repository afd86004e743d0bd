"""The lab's help panel: every top-level field of a game's view, in Polish and English, and an
example view from a real position (seeded play of our level-2 bots).

``FIELDS`` holds the fields every game shares (``Game.view``) and those most games have;
``GAME_FIELDS[game]`` a game's own, which replace a shared description where the meaning
differs.  ``tests/test_lab_python.py`` checks that every key of real views, in every phase and
player count, is described.

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
    "game": ("The game's id (cesarz, euchre, imperial, tysiac1001, sixty_six).",
             "Identyfikator gry (cesarz, euchre, imperial, tysiac1001, sixty_six)."),
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

GAME_FIELDS = {
    "cesarz": {
        "trump": ("The trump suit, or null before the first king-queen meld makes one.",
                  "Kolor atutowy albo null, zanim pierwszy meldunek króla z damą go ustanowi."),
        "trump_card": ("Always null in cesarz (no trump card is turned).",
                       "W cesarzu zawsze null (nie odkrywa się karty atutowej)."),
        "opener": ("The seat that opened the bidding.", "Miejsce, które otworzyło licytację."),
        "high_bidder": ("The seat of the highest bid so far, or null.",
                        "Miejsce z najwyższą dotąd licytacją albo null."),
        "led": ("The obligatory suit of the current trick, or null.",
                "Kolor obowiązujący w bieżącej lewie albo null."),
        "released": ("Whether a trump has released the duty to follow the suit in this trick.",
                     "Czy atut zwolnił z obowiązku dokładania do koloru w tej lewie."),
        "emperor_trick": ("Whether the current trick was started by the emperor (no suit to "
                          "follow; the emperor's player takes it).",
                          "Czy bieżącą lewę rozpoczął cesarz (bez obowiązku koloru; bierze ją "
                          "gracz cesarza)."),
        "to_give": ("The seats still to receive a card from the declarer, in order.",
                    "Miejsca, które mają jeszcze dostać kartę od grającego, po kolei."),
        "melds": ("The melds declared in this deal: [{seat, cards, value, kind}, ...] (kind 1 "
                  "king-queen, 2 prince-young princess).",
                  "Meldunki ogłoszone w tym rozdaniu: [{seat, cards, value, kind}, ...] (kind 1 "
                  "król-dama, 2 książę-młoda księżniczka)."),
        "given": ("The cards handed out by the declarer: [{seat, to, card}], the card only "
                  "when you gave or received it.",
                  "Karty rozdane przez grającego: [{seat, to, card}], karta tylko gdy ją dałeś "
                  "lub dostałeś."),
        "deal_points": ("This deal's points so far: {cards: [per seat], melds: [per seat]}.",
                        "Punkty tego rozdania: {cards: [na miejsce], melds: [na miejsce]}."),
        "previous_deal": ("What the previous deal ended with (hands, musik, points), or null.",
                          "Jak skończyło się poprzednie rozdanie (ręce, musik, punkty) albo "
                          "null."),
    },
    "euchre": {
        "trump": ("The trump suit, or null until someone orders up or names it.",
                  "Kolor atutowy albo null, dopóki ktoś go nie zamówi lub nie nazwie."),
        "upcard": ("The card turned up after the deal (round one may make its suit trump).",
                   "Karta odkryta po rozdaniu (w pierwszej rundzie jej kolor może zostać "
                   "atutem)."),
        "upcard_state": ("shown (still up), taken (the dealer picked it up) or turned (turned "
                         "down after round one).",
                         "shown (wciąż odkryta), taken (rozdający ją wziął) lub turned "
                         "(odwrócona po pierwszej rundzie)."),
        "trump_card": ("The upcard while it is still shown, else null.",
                       "Odkryta karta, póki leży na stole, inaczej null."),
        "teams": ("The two pairs: [[0, 2], [1, 3]]; your partner sits opposite you.",
                  "Dwie pary: [[0, 2], [1, 3]]; partner siedzi naprzeciwko."),
        "team_scores": ("The two pairs' points: [pair of 0 and 2, pair of 1 and 3].",
                        "Punkty obu par: [para 0 i 2, para 1 i 3]."),
        "maker": ("The seat that made trump, or null.", "Miejsce, które ustaliło atut, albo null."),
        "alone": ("Whether the maker plays alone (the partner sits out).",
                  "Czy ustalający atut gra sam (partner pauzuje)."),
        "lone_defender": ("The seat defending alone against a lone maker, or null.",
                          "Miejsce broniące się samo przeciw samotnemu graczowi albo null."),
        "sitting_out": ("The seats that sit this deal out (a lone player's partner): a list.",
                        "Miejsca pauzujące w tym rozdaniu (partner samotnego gracza): lista."),
        "calls": ("The calls of the bidding so far, in order: [{seat, type, suit?}, ...].",
                  "Zapowiedzi licytacji, po kolei: [{seat, type, suit?}, ...]."),
        "piles": ("The kitty (face down), the dealer's discard (you see it if you are the "
                  "dealer) and a turned-down upcard.",
                  "Talonik (zakryty), karta odrzucona przez rozdającego (widzisz ją, jeśli "
                  "rozdajesz) i odwrócona karta."),
        "scores": ("The match totals per seat (each seat shows its pair's points).",
                   "Wynik meczu na miejsce (każde miejsce pokazuje punkty swojej pary)."),
        "winner": ("The winning pair's seats once the game is over, else null.",
                   "Miejsca zwycięskiej pary po końcu gry, inaczej null."),
    },
    "imperial": {
        "trump_card": ("The card that made trump: turned up (2 players) or the dealer's last "
                       "card, shown (3 players).",
                       "Karta wyznaczająca atut: odkryta (2 graczy) lub ostatnia karta "
                       "rozdającego, pokazana (3 graczy)."),
        "trump_card_in_hand": ("Whether the trump card stays in the dealer's hand (3 players).",
                               "Czy karta atutowa zostaje w ręce rozdającego (3 graczy)."),
        "revealed": ("Per seat, the cards its declarations showed (still held or played).",
                     "Dla każdego miejsca karty pokazane przy deklaracjach (w ręce lub "
                     "zagrane)."),
        "piles": ("The unused cards, face down (2 players).",
                  "Niewykorzystane karty, zakryte (2 graczy)."),
        "deal_points": ("The points each seat has gained in this deal: a list.",
                        "Punkty zdobyte przez każde miejsce w tym rozdaniu: lista."),
        "unit": ("Points to an imperial (24).", "Punktów na jeden imperiał (24)."),
        "scores": ("The match totals in points (24 points make an imperial).",
                   "Wynik meczu w punktach (24 punkty to jeden imperiał)."),
    },
    "tysiac1001": {
        "trump": ("The trump suit, or null until a marriage is declared.",
                  "Kolor atutowy albo null, dopóki nikt nie zamelduje."),
        "trump_card": ("Always null in 1001.", "W tysiącu zawsze null."),
        "bid": ("The bid that won the auction, or null.",
                "Licytacja, która wygrała, albo null."),
        "przykup": ("The three przykup cards once turned up, else null.",
                    "Trzy karty przykupu po odkryciu, inaczej null."),
        "piles": ("The przykup: its cards once turned up, else its count.",
                  "Przykup: jego karty po odkryciu, inaczej ich liczba."),
        "marriages": ("The marriages declared: [{seat, suit, value, cards}, ...].",
                      "Ogłoszone meldunki: [{seat, suit, value, cards}, ...]."),
        "given": ("The cards the declarer handed out that you may know: [{card, to}] (the "
                  "declarer sees both, a recipient his own).",
                  "Karty rozdane przez grającego, które możesz znać: [{card, to}] (grający "
                  "widzi obie, odbiorca swoją)."),
    },
    "sixty_six": {
        "trump_card": ("The trump card under the stock, or null once it has been drawn.",
                       "Karta atutowa pod talonem albo null, gdy już ją dobrano."),
        "stock": ("How many cards are left in the stock (0: follow suit from now on).",
                  "Ile kart zostało w talonie (0: od teraz trzeba dokładać do koloru)."),
        "captured": ("The cards you have taken in tricks so far.",
                     "Karty, które dotąd wziąłeś w lewach."),
        "deal_winner": ("The seat that won the deal once it is decided, else null.",
                        "Miejsce, które wygrało rozdanie, gdy to rozstrzygnięte, inaczej null."),
        "seats": ("One entry per seat: cards in hand, tricks taken, and points (only your "
                  "own until the deal is over).",
                  "Jeden wpis na miejsce: karty w ręce, wzięte lewy i punkty (tylko twoje, "
                  "dopóki rozdanie trwa)."),
        "scores": ("Deals won per seat (66 is one deal a game).",
                   "Wygrane rozdania na miejsce (w 66 gra to jedno rozdanie)."),
    },
}


def describe(game_id: str) -> dict:
    """``{key: {"en", "pl"}}``: the shared descriptions with the game's own over them."""
    both = dict(FIELDS)
    both.update(GAME_FIELDS.get(game_id, {}))
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
