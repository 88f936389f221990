// The lobby's account panel: log in, sign up, or play as a guest under a chosen name; hidden once
// someone is signed in (the top bar says who).
import * as api from "./api.js";
import { h, replaceKeepingFocus, toast } from "./dom.js";
import { t } from "./i18n.js";
import { currentUser, setUser } from "./session.js";

// Sign up, log in or come in as a guest with what the forms hold.
async function signIn(page, kind, { name, password, guestName }) {
  try {
    const who =
      kind === "guest"
        ? await api.guest(guestName.value.trim())
        : kind === "signup"
          ? await api.signup(name.value.trim(), password.value)
          : await api.login(name.value.trim(), password.value);
    page.dispatch({ type: "draft", key: "password", value: "" });
    setUser(who);
  } catch (err) {
    toast(err.message, "error");
  }
}

// The three inputs; typed text survives a redraw (language switch) through the state's `draft`.
function accountInputs(page) {
  const draft = page.state.draft;
  const keep = (key) => (e) => page.dispatch({ type: "draft", key, value: e.target.value });
  return {
    name: h("input", {
      id: "acc-name",
      name: "name",
      autocomplete: "username",
      required: true,
      maxlength: 24,
      value: draft.name,
      oninput: keep("name"),
    }),
    password: h("input", {
      id: "acc-password",
      name: "password",
      type: "password",
      autocomplete: "current-password",
      minlength: 8,
      value: draft.password,
      oninput: keep("password"),
    }),
    guestName: h("input", {
      id: "guest-name",
      name: "guest",
      required: true,
      maxlength: 24,
      value: draft.guest,
      oninput: keep("guest"),
    }),
  };
}

export function drawAccount(page) {
  const box = page.parts.accountBox;
  const user = currentUser();
  if (user) {
    replaceKeepingFocus(
      box,
      h("h2", { id: "account-title" }, t("account.signedIn", { name: user.name })),
      user.guest ? h("p", { class: "muted" }, t("account.guestBadge")) : null,
    );
    box.hidden = true;
    return;
  }
  box.hidden = false;
  const inputs = accountInputs(page);
  const submit = (kind) => signIn(page, kind, inputs);
  replaceKeepingFocus(
    box,
    h("h2", { id: "account-title" }, t("account.title")),
    h("p", { class: "muted" }, t("account.intro")),
    h(
      "div",
      { class: "account-forms" },
      h(
        "form",
        {
          class: "stack",
          "data-testid": "login-form",
          onsubmit: (e) => {
            e.preventDefault();
            submit(e.submitter?.value === "signup" ? "signup" : "login");
          },
        },
        h("label", { for: "acc-name" }, t("account.name")),
        inputs.name,
        h("label", { for: "acc-password" }, t("account.password")),
        inputs.password,
        h(
          "div",
          { class: "row" },
          h("button", { type: "submit", value: "login", class: "primary" }, t("account.login")),
          h("button", { type: "submit", value: "signup" }, t("account.signup")),
        ),
      ),
      h(
        "form",
        {
          class: "stack",
          "data-testid": "guest-form",
          onsubmit: (e) => {
            e.preventDefault();
            submit("guest");
          },
        },
        h("label", { for: "guest-name" }, t("account.guestName")),
        inputs.guestName,
        h("div", { class: "row" }, h("button", { type: "submit", class: "primary" }, t("account.guest"))),
      ),
    ),
  );
}
