/** The words of the dialogs that ask the person to share: reads, folders, sign-ins, elicitation. */
export const requests = {
  // Shared by the dialogs.
  "requests.action.cancel": "Cancel",
  "requests.action.decline": "Decline",
  "requests.message.label": "Message from {server}",
  "requests.list.separator": ", ",

  // An agent, a model or an app reads what a server offers.
  "requests.read.title.resource":
    "{by, select, agent {{agent}} model {A model in conversation “{conversation}”} person {You} other {The app of {app}}} wants to read <code>{uri}</code> from {server}",
  "requests.read.title.subscription":
    "{by, select, agent {{agent}} model {A model in conversation “{conversation}”} person {You} other {The app of {app}}} wants to follow the changes of <code>{uri}</code> from {server}",
  "requests.read.title.prompt":
    "{by, select, agent {{agent}} model {A model in conversation “{conversation}”} person {You} other {The app of {app}}} wants the prompt <code>{name}</code> from {server}",
  "requests.read.title.completion":
    "{by, select, agent {{agent}} model {A model in conversation “{conversation}”} person {You} other {The app of {app}}} wants suggestions for <code>{argument}</code> of <code>{of}</code> from {server}",
  "requests.read.title.skill":
    "{by, select, agent {{agent}} model {A model in conversation “{conversation}”} person {You} other {The app of {app}}} wants to use the skill <code>{name}</code> from {server}",
  "requests.read.deny": "Deny",
  "requests.read.allowSkillAlways": "Always allow this skill as it is",
  "requests.read.allowServerAlways": "Always allow reading this server",
  "requests.read.allowServerUntilQuit": "Allow reading this server until quit",
  "requests.read.allowOnce": "Allow once",
  "requests.read.detail.label": "What is read",
  "requests.read.detail.resource": "Resource",
  "requests.read.detail.instructions": "Instructions",
  "requests.read.detail.asItIs": "As it is now",
  "requests.read.detail.typed": "Typed so far",
  "requests.read.detail.nothing": "(nothing)",
  "requests.read.skillNote":
    "A skill is instructions the model follows. Allowed always, it is asked about again if its server changes it.",
  "requests.read.remember.legend":
    "Remember a choice to allow {by, select, model {the model's} app {the app's} other {this agent's}} reads of this server",
  "requests.read.remember.untilQuit": "Until Switchboard quits",
  "requests.read.remember.always": "Always (saved in the settings)",

  // What is read, in a line of text.
  "requests.subject.prompt": "the prompt {name}",
  "requests.subject.completion": "suggestions for {argument} of {of}",
  "requests.subject.skill": "the skill {name}",
  "requests.named.resource": "read {uri}",
  "requests.named.subscription": "subscribe to {uri}",
  "requests.named.prompt": "prompt {name}",
  "requests.named.completion": "complete {argument} of {of}",
  "requests.named.skill": "use the skill {name}",

  // Folders to share: a server asks for them, an agent offers its own.
  "requests.roots.title": "{server} wants to see your folders",
  "requests.roots.note":
    "The server may read what these folders hold, and whatever it is allowed to do with files there. Share only what it needs.",
  "requests.agentRoots.title": "{agent} offers these folders: expose them to its servers?",
  "requests.agentRoots.note":
    "Offered by {agent}, the agent: the servers it uses ({servers}) may read what the folders kept here hold. Remove any they do not need.",
  "requests.folders.shareNothing": "Share nothing",
  "requests.folders.share": "Share these folders",
  "requests.folders.empty": "No folder is shared.",
  "requests.folders.list": "Folders to share",
  "requests.folders.remove": "Remove",
  "requests.folders.removeLabel": "Remove {folder}",
  "requests.folders.path": "Folder path",
  "requests.folders.add": "Add",
  "requests.folders.browse": "Browse…",
  "requests.folders.error.empty": "Enter a folder path",
  "requests.folders.error.relative": "Enter an absolute path, such as /home/you/project",
  "requests.folders.error.listed": "This folder is already in the list",
  "requests.folders.error.refused": "This folder cannot be shared: {reason}",
  "requests.folders.notFound": "no such folder",
  "requests.folders.notAFolder": "not a folder",
  "requests.folders.error.picker": "The folder picker failed: {message}",

  // Signing in to a server.
  "requests.signIn.title": "Sign in to {server}",
  "requests.signIn.signIn": "Sign in",
  "requests.signIn.at": "You will sign in at {issuerHost}",
  "requests.signIn.atOnPage": "You will sign in at {issuerHost}, on a page of {host}",
  "requests.signIn.issuer": "Authorization server",
  "requests.signIn.resource": "For the server",
  "requests.signIn.scopes": "Permissions asked",
  "requests.signIn.defaultScopes": "what the server grants by default",
  "requests.signIn.page": "Page that opens in your browser",
  "requests.signIn.unopenable": "This address cannot be opened. Cancel the sign-in.",

  // A server asks the person to open a web page.
  "requests.url.title": "{server} wants you to open a web page",
  "requests.url.open": "Open in browser",
  "requests.url.fine": "Nothing in this address looks odd. Open it only if you expected this request.",
  "requests.url.unopenable": "This address cannot be opened. Decline or cancel the request.",
  "requests.address.on": "The page is on {host}",
  "requests.address.onReadsAs": "The page is on {host}, which reads as {unicodeHost}",
  "requests.address.full": "Full address",
  "requests.address.warnings": "Warnings",

  // What looks odd in a web address.
  "requests.warning.invalid": "This is not a valid web address: it cannot be opened.",
  "requests.warning.scheme": "Addresses of the “{scheme}:” kind are refused: only web addresses (https) are opened.",
  "requests.warning.http": "Not encrypted (http): anyone on the network could read or change what you see and send.",
  "requests.warning.user":
    "The address holds a user name (“{user}”) before the host: the page is on {host}, whatever that name suggests. Addresses like this are refused.",
  "requests.warning.userAndPassword":
    "The address holds a user name and a password (“{user}”) before the host: the page is on {host}, whatever that name suggests. Addresses like this are refused.",
  "requests.warning.ip": "The host is a bare IP address ({host}), not a name you could recognize.",
  "requests.warning.local": "The host is this computer or your local network.",
  "requests.warning.internationalized":
    "The host is an internationalized name that reads as “{unicodeHost}”: its letters may imitate another name.",
  "requests.warning.mixed": "The name “{label}” mixes {scripts} letters, which can look identical to other letters.",
  "requests.warning.mentions": "The message mentions {mentioned}, but the address goes to {host}.",
  "requests.script.joined": "{first} and {second}",
  "requests.script.and": "{first} and {second}",
  "requests.script.latin": "Latin",
  "requests.script.cyrillic": "Cyrillic",
  "requests.script.greek": "Greek",
  "requests.script.armenian": "Armenian",
  "requests.script.georgian": "Georgian",
  "requests.script.cherokee": "Cherokee",
  "requests.script.hebrew": "Hebrew",
  "requests.script.arabic": "Arabic",
  "requests.script.devanagari": "Devanagari",
  "requests.script.thai": "Thai",
  "requests.script.cjk": "CJK",
  "requests.script.other": "other",

  // A server asks the person to fill in a form.
  "requests.form.title": "{server} asks you for some information",
  "requests.form.submit": "Submit",
  "requests.form.note":
    "Your answers go to {server}. A server must never ask for passwords, keys or card numbers in a form.",
  "requests.form.problems":
    "{count, plural, one {One field needs a fix} other {# fields need a fix}} before the answer can be sent.",
} as const;
