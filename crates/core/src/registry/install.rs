//! From a registry entry to the server entry that runs it: the command line of its package
//! (`npx`, `uvx`, `docker run`) or its remote URL, with the environment variables and
//! headers it declares, each value fixed by the entry or answered by the person. Nothing is
//! saved here: the composed entry is shown to the person before anything is.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::entry::{Argument, Input, InputWithVariables, KeyValueInput, Package, RegistryServer};

/// Which of the entry's ways to run the server.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub enum Way {
    /// Its package number n, run on this machine.
    Package(u32),
    /// Its remote number n, reached over HTTP.
    Remote(u32),
}

/// A value the person is asked for.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub struct Prompt {
    /// Names the answer: `env:NAME`, `header:NAME`, `arg:N`, `url:VAR`, and `...:VAR` for
    /// a variable inside one of those.
    pub id: String,
    /// What it sets.
    pub sets: Sets,
    pub input: Input,
}

/// What an answer sets, named for the person ("environment variable WEATHER_API_KEY"):
/// a kind a face words in its language, with the entry's own names. `Display` is the
/// host's English.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(tag = "kind", rename_all = "camelCase")]
pub enum Sets {
    /// An argument by its name, or the hint at its value; none: one with neither.
    Argument {
        name: Option<String>,
    },
    Environment {
        name: String,
    },
    Header {
        name: String,
    },
    /// A variable in the remote's address.
    Address {
        name: String,
    },
    /// A variable in the value of another.
    VariableOf {
        name: String,
        of: Box<Sets>,
    },
}

impl std::fmt::Display for Sets {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Argument { name } => write!(f, "argument {}", name.as_deref().unwrap_or("value")),
            Self::Environment { name } => write!(f, "environment variable {name}"),
            Self::Header { name } => write!(f, "header {name}"),
            Self::Address { name } => write!(f, "{name} in the address"),
            Self::VariableOf { name, of } => write!(f, "{name} of {of}"),
        }
    }
}

/// Why an answer for installing a server, or what its entry declares, is refused. Serialized
/// by kind, for a face to say in its language.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(
    tag = "kind",
    content = "of",
    rename_all = "camelCase",
    rename_all_fields = "camelCase"
)]
pub enum InstallError {
    #[error("the entry has no {}", match .0 {
        Way::Package(n) => format!("package {}", n + 1),
        Way::Remote(n) => format!("remote {}", n + 1),
    })]
    NoSuchWay(Way),
    #[error("Switchboard does not run {0} packages; choose another package or a remote")]
    Unsupported(String),
    #[error("this package runs as a local {0} server, which Switchboard does not start")]
    LocalHttp(String),
    #[error("{0} needs a value")]
    Missing(Sets),
    #[error("{sets} must be one of {choices}")]
    NotAChoice { sets: Sets, choices: String },
    #[error("{sets} must be {format}, not {value:?}")]
    BadFormat {
        sets: Sets,
        format: String,
        value: String,
    },
    #[error("{0} may hold only letters, digits and - . _ ~")]
    NotPlain(Sets),
    #[error("the remote's address {0:?} is not an http:// or https:// URL")]
    BadUrl(String),
    #[error("the entry declares {0} twice")]
    Twice(String),
    #[error("the entry declares a bad {} name {name:?}", if *header { "header" } else { "environment variable" })]
    BadName { header: bool, name: String },
}

/// A value composed for a variable or a header; `secret` when the person's answer (or the
/// entry) says it is one: it goes to the keyring, never to the file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Composed {
    pub name: String,
    pub value: String,
    pub secret: bool,
}

/// What the entry runs, its inputs answered.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Launch {
    Command {
        command: String,
        args: Vec<String>,
        env: Vec<Composed>,
    },
    Remote {
        url: String,
        /// `sse` for the legacy HTTP+SSE transport, else streamable HTTP.
        sse: bool,
        headers: Vec<Composed>,
    },
}

/// Everything the person is asked for to run the server `way`.
pub fn prompts(server: &RegistryServer, way: Way) -> Result<Vec<Prompt>, InstallError> {
    let mut prompts = Vec::new();
    match way {
        Way::Package(n) => {
            let package = package(server, n)?;
            runner(package)?;
            for (i, arg) in arguments(package).enumerate() {
                ask(
                    &mut prompts,
                    &format!("arg:{i}"),
                    argument_sets(arg),
                    arg.input(),
                );
            }
            for var in &package.environment_variables {
                let sets = Sets::Environment {
                    name: var.name.clone(),
                };
                ask(&mut prompts, &format!("env:{}", var.name), sets, &var.input);
            }
        }
        Way::Remote(n) => {
            let remote = remote(server, n)?;
            for (name, input) in &remote.variables {
                let sets = Sets::Address { name: name.clone() };
                prompts.push(prompt(&format!("url:{name}"), sets, input));
            }
            for header in &remote.headers {
                let sets = Sets::Header {
                    name: header.name.clone(),
                };
                ask(
                    &mut prompts,
                    &format!("header:{}", header.name),
                    sets,
                    &header.input,
                );
            }
        }
    }
    Ok(prompts)
}

/// The server `way` of the entry, with `answers` (by prompt id) to its prompts; a prompt
/// not answered takes its default.
pub fn compose(
    server: &RegistryServer,
    way: Way,
    answers: &BTreeMap<String, String>,
) -> Result<Launch, InstallError> {
    let answers = Answers(answers);
    match way {
        Way::Package(n) => {
            let package = package(server, n)?;
            let (command, mut args) = runner(package)?;
            let mut env = Vec::new();
            for var in &package.environment_variables {
                valid_name(false, &var.name, is_env_name)?;
                let sets = Sets::Environment {
                    name: var.name.clone(),
                };
                if let Some(value) =
                    answers.value(&format!("env:{}", var.name), sets, &var.input)?
                {
                    push_unique(&mut env, var, value)?;
                }
            }
            let image_at = args.len();
            for (i, arg) in package.runtime_arguments.iter().enumerate() {
                push_argument(&mut args, &answers, i, arg)?;
            }
            let runtime_count = package.runtime_arguments.len();
            match package.registry_type.as_str() {
                "npm" => args.push(pinned(package, "@")),
                "pypi" => args.push(pinned(package, "==")),
                _ => {
                    // Docker passes on only the variables named on its command line.
                    let passed = env.iter().flat_map(|v| ["-e".to_owned(), v.name.clone()]);
                    args.splice(image_at..image_at, passed);
                    args.push(image(package));
                }
            }
            for (i, arg) in package.package_arguments.iter().enumerate() {
                push_argument(&mut args, &answers, runtime_count + i, arg)?;
            }
            Ok(Launch::Command { command, args, env })
        }
        Way::Remote(n) => {
            let remote = remote(server, n)?;
            let mut url = remote.url.clone();
            for (name, input) in &remote.variables {
                let sets = Sets::Address { name: name.clone() };
                let placeholder = format!("{{{name}}}");
                let value = answers.one(&format!("url:{name}"), &sets, input)?;
                let value = value.unwrap_or_default();
                // A value is a part of the address, never one that moves it elsewhere
                // (`evil.example/` before a host's name); a template may start with a whole
                // base URL, checked below with the rest.
                let base = remote.url.starts_with(&placeholder);
                if !base
                    && !value
                        .chars()
                        .all(|c| c.is_ascii_alphanumeric() || "-._~".contains(c))
                {
                    return Err(InstallError::NotPlain(sets));
                }
                url = url.replace(&placeholder, &value);
            }
            let parsed = url::Url::parse(&url).map_err(|_| InstallError::BadUrl(url.clone()))?;
            if !matches!(parsed.scheme(), "http" | "https") || parsed.host().is_none() {
                return Err(InstallError::BadUrl(url));
            }
            let mut headers = Vec::new();
            for header in &remote.headers {
                valid_name(true, &header.name, is_header_name)?;
                let sets = Sets::Header {
                    name: header.name.clone(),
                };
                if let Some(value) =
                    answers.value(&format!("header:{}", header.name), sets, &header.input)?
                {
                    push_unique(&mut headers, header, value)?;
                }
            }
            Ok(Launch::Remote {
                url,
                sse: remote.kind == "sse",
                headers,
            })
        }
    }
}

/// A name for the server in Switchboard: the last part of its registry name, in the
/// letters a server's name may hold.
pub fn local_name(server: &RegistryServer) -> String {
    let last = server.name.rsplit('/').next().unwrap_or(&server.name);
    let name: String = last
        .chars()
        .map(
            |c| match c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.') {
                true => c,
                false => '-',
            },
        )
        .collect();
    match name.trim_matches('-').is_empty() {
        true => "server".to_owned(),
        false => name,
    }
}

fn package(server: &RegistryServer, n: u32) -> Result<&Package, InstallError> {
    server
        .packages
        .get(n as usize)
        .ok_or(InstallError::NoSuchWay(Way::Package(n)))
}

fn remote(server: &RegistryServer, n: u32) -> Result<&super::entry::Remote, InstallError> {
    server
        .remotes
        .get(n as usize)
        .ok_or(InstallError::NoSuchWay(Way::Remote(n)))
}

/// The command that fetches and runs the package, and its first arguments.
fn runner(package: &Package) -> Result<(String, Vec<String>), InstallError> {
    if package.transport.kind != "stdio" {
        return Err(InstallError::LocalHttp(package.transport.kind.clone()));
    }
    let strings = |words: &[&str]| words.iter().map(|w| (*w).to_owned()).collect();
    match package.registry_type.as_str() {
        "npm" => Ok(("npx".into(), strings(&["-y"]))),
        "pypi" => Ok(("uvx".into(), Vec::new())),
        "oci" => Ok(("docker".into(), strings(&["run", "-i", "--rm"]))),
        other => Err(InstallError::Unsupported(other.to_owned())),
    }
}

/// `name@version` (npm) or `name==version` (PyPI): the version the entry names, no other.
fn pinned(package: &Package, at: &str) -> String {
    match &package.version {
        Some(version) => format!("{}{at}{version}", package.identifier),
        None => package.identifier.clone(),
    }
}

/// The image with its tag: the identifier's own, else the package's version.
fn image(package: &Package) -> String {
    let last = package.identifier.rsplit('/').next().unwrap_or_default();
    match (&package.version, last.contains(':') || last.contains('@')) {
        (Some(version), false) => format!("{}:{version}", package.identifier),
        _ => package.identifier.clone(),
    }
}

fn arguments(package: &Package) -> impl Iterator<Item = &Argument> {
    package
        .runtime_arguments
        .iter()
        .chain(&package.package_arguments)
}

fn argument_sets(arg: &Argument) -> Sets {
    Sets::Argument {
        name: match arg {
            Argument::Named { name, .. } => Some(name.clone()),
            Argument::Positional { value_hint, .. } => value_hint.clone(),
        },
    }
}

fn push_argument(
    args: &mut Vec<String>,
    answers: &Answers,
    i: usize,
    arg: &Argument,
) -> Result<(), InstallError> {
    let value = answers.value(&format!("arg:{i}"), argument_sets(arg), arg.input())?;
    match (arg, value) {
        (Argument::Named { name, .. }, Some(value)) => {
            args.push(name.clone());
            if !value.value.is_empty() {
                args.push(value.value);
            }
        }
        (Argument::Positional { .. }, Some(value)) => args.push(value.value),
        (_, None) => {}
    }
    Ok(())
}

/// Asks for the input itself, or for the variables its fixed value names.
fn ask(prompts: &mut Vec<Prompt>, id: &str, sets: Sets, input: &InputWithVariables) {
    match &input.input.value {
        None => prompts.push(prompt(id, sets, &input.input)),
        Some(value) => {
            for (name, variable) in &input.variables {
                if value.contains(&format!("{{{name}}}")) {
                    let sets = variable_of(name, &sets);
                    prompts.push(prompt(&format!("{id}:{name}"), sets, variable));
                }
            }
        }
    }
}

fn variable_of(name: &str, sets: &Sets) -> Sets {
    Sets::VariableOf {
        name: name.to_owned(),
        of: Box::new(sets.clone()),
    }
}

fn prompt(id: &str, sets: Sets, input: &Input) -> Prompt {
    Prompt {
        id: id.to_owned(),
        sets,
        input: input.clone(),
    }
}

struct Answers<'a>(&'a BTreeMap<String, String>);

/// An input's value and whether it is secret.
struct Value {
    value: String,
    secret: bool,
}

impl Answers<'_> {
    /// The value of one input: fixed by the entry (its variables answered), or answered;
    /// none when it is left empty and not required.
    fn value(
        &self,
        id: &str,
        sets: Sets,
        input: &InputWithVariables,
    ) -> Result<Option<Value>, InstallError> {
        let Some(fixed) = &input.input.value else {
            let value = self.one(id, &sets, &input.input)?;
            return Ok(value.map(|value| Value {
                value,
                secret: input.input.is_secret,
            }));
        };
        let mut value = fixed.clone();
        let mut secret = input.input.is_secret;
        for (name, variable) in &input.variables {
            let placeholder = format!("{{{name}}}");
            if !value.contains(&placeholder) {
                continue;
            }
            let answer = self.one(&format!("{id}:{name}"), &variable_of(name, &sets), variable)?;
            let Some(answer) = answer else {
                // An optional part left empty leaves the whole out (`Bearer ` alone is no header).
                return Ok(None);
            };
            secret |= variable.is_secret;
            value = value.replace(&placeholder, &answer);
        }
        Ok(Some(Value { value, secret }))
    }

    /// One answer, checked against what the input allows; none when it is left empty
    /// and not required.
    fn one(&self, id: &str, sets: &Sets, input: &Input) -> Result<Option<String>, InstallError> {
        let value = match self.0.get(id) {
            Some(answer) => answer.clone(),
            None => input.default.clone().unwrap_or_default(),
        };
        if value.is_empty() {
            return match input.is_required {
                true => Err(InstallError::Missing(sets.clone())),
                false => Ok(None),
            };
        }
        if !input.choices.is_empty() && !input.choices.contains(&value) {
            return Err(InstallError::NotAChoice {
                sets: sets.clone(),
                choices: input.choices.join(", "),
            });
        }
        let fits = match input.format.as_deref() {
            Some("number") => value.trim().parse::<f64>().is_ok_and(f64::is_finite),
            Some("boolean") => matches!(value.as_str(), "true" | "false"),
            _ => true,
        };
        if !fits {
            return Err(InstallError::BadFormat {
                sets: sets.clone(),
                format: input.format.clone().unwrap_or_default(),
                value,
            });
        }
        Ok(Some(value))
    }
}

fn push_unique(
    values: &mut Vec<Composed>,
    declared: &KeyValueInput,
    value: Value,
) -> Result<(), InstallError> {
    if values.iter().any(|v| v.name == declared.name) {
        return Err(InstallError::Twice(declared.name.clone()));
    }
    values.push(Composed {
        name: declared.name.clone(),
        value: value.value,
        secret: value.secret,
    });
    Ok(())
}

fn valid_name(header: bool, name: &str, valid: fn(&str) -> bool) -> Result<(), InstallError> {
    match valid(name) {
        true => Ok(()),
        false => Err(InstallError::BadName {
            header,
            name: name.to_owned(),
        }),
    }
}

fn is_env_name(name: &str) -> bool {
    let mut chars = name.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// An HTTP token (RFC 9110).
fn is_header_name(name: &str) -> bool {
    !name.is_empty()
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "!#$%&'*+-.^_`|~".contains(c))
}
