// A player page (/player/NAME): ratings per game with their history as a chart, win rates, and
// the recent finished games with every seat's place and a link to each replay.
import * as api from "./api.js";
import { ratingChart } from "./chart.js";
import { h, patch } from "./dom.js";
import { onLangChange, paren, t } from "./i18n.js";
import { playerLink } from "./tables.js";

export function mount(root, { name }) {
  const box = h("div", { class: "player-page" });
  root.append(box);
  let data = null;
  let error = null;

  function render() {
    if (error) {
      patch(box, h("h1", {}, name), h("p", { class: "error" }, error), h("a", { href: "/" }, t("app.back")));
      return;
    }
    if (!data) {
      patch(box, h("h1", {}, name), h("p", { class: "muted" }, t("app.loading")));
      return;
    }
    document.title = `${data.user.name} — nekobako`;
    patch(
      box,
      h(
        "h1",
        { "data-testid": "player-name" },
        data.user.name,
        data.user.guest ? h("span", { class: "badge" }, t("account.guestBadge")) : null,
      ),
      h("p", {}, h("a", { href: "/" }, t("app.back"))),
      ratingsSection(data),
      winRatesSection(data),
      recentSection(data),
    );
  }

  render();
  api
    .player(name)
    .then((page) => {
      data = page;
      render();
    })
    .catch((err) => {
      error = err.status === 404 ? t("player.unknown", { name }) : err.message;
      render();
    });
  const offLang = onLangChange(render);
  return () => {
    offLang();
    document.title = "nekobako 猫箱";
  };
}

const title = (game) => t(`game.${game}`);
const when = (iso) => (iso ? new Date(iso).toLocaleDateString(document.documentElement.lang) : "");

function ratingsSection(data) {
  return h(
    "section",
    { class: "panel", "aria-labelledby": "player-ratings" },
    h("h2", { id: "player-ratings" }, t("player.ratings")),
    data.ratings.length
      ? data.ratings.map((r) =>
          h(
            "div",
            { class: "rating-game", "data-game": r.game },
            h(
              "h3",
              {},
              title(r.game),
              " — ",
              h("span", { "data-testid": "rating-now" }, Math.round(r.rating)),
              " ",
              h("span", { class: "muted small" }, t("lobby.games", { n: r.games })),
            ),
            ratingChart(
              r.history.map((p) => ({
                rating: p.rating,
                label: `${t("lobby.tableN", { id: p.table })} ${when(p.at)}`,
              })),
              r.start ?? r.rating,
              t("player.chartLabel", {
                game: title(r.game),
                from: Math.round(r.start ?? r.rating),
                to: Math.round(r.rating),
                n: r.history.length,
              }),
            ),
          ),
        )
      : h("p", { class: "muted" }, data.user.guest ? t("player.guestNoRating") : t("player.noRatings")),
  );
}

function winRatesSection(data) {
  return h(
    "section",
    { class: "panel", "aria-labelledby": "player-wins" },
    h("h2", { id: "player-wins" }, t("player.winRates")),
    data.win_rates.length
      ? h(
          "table",
          { class: "scores", "data-testid": "win-rates" },
          h(
            "thead",
            {},
            h(
              "tr",
              {},
              h("th", { scope: "col" }, t("lobby.game")),
              h("th", { scope: "col" }, t("player.played")),
              h("th", { scope: "col" }, t("player.won")),
              h("th", { scope: "col" }, t("player.rate")),
            ),
          ),
          h(
            "tbody",
            {},
            data.win_rates.map((w) =>
              h(
                "tr",
                { "data-game": w.game },
                h("th", { scope: "row" }, title(w.game)),
                h("td", {}, w.played),
                h("td", {}, w.won),
                h("td", {}, `${Math.round(w.rate * 100)}%`),
              ),
            ),
          ),
        )
      : h("p", { class: "muted" }, t("player.noGames")),
  );
}

function recentSection(data) {
  return h(
    "section",
    { class: "panel", "aria-labelledby": "player-recent" },
    h("h2", { id: "player-recent" }, t("player.recent")),
    data.recent.length
      ? h(
          "ul",
          { class: "recent-games", "data-testid": "recent-games" },
          data.recent.map((g) =>
            h(
              "li",
              { "data-table": g.table },
              h("strong", {}, title(g.game)),
              " ",
              t("lobby.tableN", { id: g.table }),
              " · ",
              when(g.finished_at),
              " · ",
              g.won ? h("span", { class: "badge turn" }, t("player.win")) : null,
              g.place ? ` ${t("player.place", { n: g.place })} · ` : " ",
              g.seats.map((s, i) => [
                i ? ", " : "",
                s.user ? playerLink(s.user.name) : t(`bot.${s.bot}`),
                s.place ? paren(s.place) : "",
              ]),
              " · ",
              h("a", { href: `/replay/${g.table}` }, t("lobby.replay")),
            ),
          ),
        )
      : h("p", { class: "muted" }, t("player.noGames")),
  );
}
