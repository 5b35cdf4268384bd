// Starts `rulelang lsp` for YAML files; the server answers only for rulesets
// (files with `game:` or `extends:` at the top level) and stays quiet for others.
const vscode = require("vscode");
const { LanguageClient } = require("vscode-languageclient/node");

let client;

function activate(context) {
  const settings = vscode.workspace.getConfiguration("rulelang");
  const [command, ...args] = settings.get("command");
  client = new LanguageClient(
    "rulelang",
    "rulelang",
    { command, args },
    {
      documentSelector: [{ scheme: "file", language: "yaml" }, { scheme: "untitled", language: "yaml" }],
      initializationOptions: {
        extendsDirs: settings.get("extendsDirs"),
        debounce: settings.get("debounce"),
      },
    },
  );
  context.subscriptions.push(client);
  client.start();
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
