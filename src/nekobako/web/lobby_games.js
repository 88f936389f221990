// The lobby's Games panel (each game with its player counts, its rules and its tutorial) and the
// best ratings per game (registered players).
import { h, patch } from "./dom.js";
import { t } from "./i18n.js";
import { rulesButton } from "./rules.js";
import { playerLink } from "./tables.js";

export function drawGames(box, state) {
  patch(
    box,
    h("h2", { id: "games-title" }, t("lobby.gameList")),
    h(
      "ul",
      { class: "game-list" },
      state.games.map((g) =>
        h(
          "li",
          { "data-game": g.name, "data-key": `game-${g.name}` },
          h("strong", { class: "game-name" }, t(g.title)),
          h("span", { class: "muted" }, t("lobby.players", { min: g.min_players, max: g.max_players })),
          h(
            "span",
            { class: "game-actions" },
            rulesButton(g.name, "overview"),
            g.tutorial
              ? h(
                  "a",
                  { class: "button learn", href: `/tutorial/${g.name}`, "data-key": `learn-${g.name}` },
                  t("lobby.learn"),
                  h("span", { class: "sr-only" }, ` — ${t(g.title)}`),
                )
              : null,
          ),
        ),
      ),
    ),
  );
}

export function drawRatings(box, state) {
  const byGame = new Map();
  for (const r of state.ratings) {
    if (!byGame.has(r.game)) byGame.set(r.game, []);
    byGame.get(r.game).push(r);
  }
  patch(
    box,
    h("h2", { id: "ratings-title" }, t("lobby.ratings")),
    byGame.size
      ? h(
          "div",
          { class: "ratings-grid" },
          [...byGame].map(([game, list]) => {
            return h(
              "div",
              {},
              h("h3", {}, t(`game.${game}`)),
              h(
                "ol",
                { class: "rating-list" },
                list
                  .slice(0, 5)
                  .map((r) =>
                    h(
                      "li",
                      {},
                      playerLink(r.user.name),
                      ` — ${Math.round(r.rating)} `,
                      h("span", { class: "muted small" }, t("lobby.games", { n: r.games })),
                    ),
                  ),
              ),
            );
          }),
        )
      : h("p", { class: "muted" }, t("lobby.noRatings")),
  );
}
