//! What the app says outside its window (the tray, desktop notifications) in the language
//! the window speaks: the person's choice in the settings, else the system's (`LC_ALL`,
//! `LC_MESSAGES`, `LANG`: Chinese for any `zh`). The messages are Fluent's
//! (`locales/<language>/app.ftl`, through `fluent-bundle`, the reference implementation,
//! for its plurals by the language's own rules), one catalogue per language, each with the
//! English one's messages.

use std::sync::OnceLock;

use fluent_bundle::concurrent::FluentBundle;
use fluent_bundle::{FluentArgs, FluentResource, FluentValue};
use switchboard_core::config::Language;
use switchboard_desk::Desk;
use tauri::{AppHandle, Manager, Runtime};

const ENGLISH: &str = include_str!("locales/en/app.ftl");
const CHINESE: &str = include_str!("locales/zh-CN/app.ftl");

fn source(language: Language) -> &'static str {
    match language {
        Language::English => ENGLISH,
        Language::SimplifiedChinese => CHINESE,
    }
}

fn bundle(language: Language) -> &'static FluentBundle<FluentResource> {
    static ENGLISH_BUNDLE: OnceLock<FluentBundle<FluentResource>> = OnceLock::new();
    static CHINESE_BUNDLE: OnceLock<FluentBundle<FluentResource>> = OnceLock::new();
    let (cell, tag) = match language {
        Language::English => (&ENGLISH_BUNDLE, "en"),
        Language::SimplifiedChinese => (&CHINESE_BUNDLE, "zh-CN"),
    };
    cell.get_or_init(|| {
        let resource = FluentResource::try_new(source(language).to_owned())
            .unwrap_or_else(|(_, errors)| panic!("locales/{tag}/app.ftl: {errors:?}"));
        let tag = tag.parse().expect("a language tag");
        let mut bundle = FluentBundle::new_concurrent(vec![tag]);
        // Arguments go in as they are: no Unicode isolation marks around them in a tray.
        bundle.set_use_isolating(false);
        bundle
            .add_resource(resource)
            .expect("one resource, no message twice");
        bundle
    })
}

/// The message `id` in `language`, with `args`.
pub fn text(language: Language, id: &str, args: &[(&str, FluentValue<'_>)]) -> String {
    let bundle = bundle(language);
    let Some(pattern) = bundle.get_message(id).and_then(|m| m.value()) else {
        return id.to_owned();
    };
    let args: FluentArgs = args.iter().cloned().collect();
    let mut errors = Vec::new();
    let said = bundle.format_pattern(pattern, Some(&args), &mut errors);
    if !errors.is_empty() {
        tracing::warn!("the message {id} did not format: {errors:?}");
    }
    said.into_owned()
}

/// The language the app speaks now.
pub fn language<R: Runtime>(app: &AppHandle<R>) -> Language {
    app.try_state::<Desk>()
        .and_then(|desk| desk.servers().language())
        .unwrap_or_else(system_language)
}

/// The system's language, of those the app speaks: the window speaks it too, unless the
/// person chose another.
pub fn system_language() -> Language {
    let tag = ["LC_ALL", "LC_MESSAGES", "LANG"]
        .iter()
        .filter_map(|name| std::env::var(name).ok())
        .find(|value| !value.is_empty());
    match tag {
        Some(tag) if tag.to_lowercase().starts_with("zh") => Language::SimplifiedChinese,
        _ => Language::English,
    }
}

/// The message `id` in the language the app speaks now.
pub fn say<R: Runtime>(app: &AppHandle<R>, id: &str, args: &[(&str, FluentValue<'_>)]) -> String {
    text(language(app), id, args)
}

#[cfg(test)]
mod tests {
    use super::*;
    use fluent_bundle::FluentResource;
    use fluent_syntax::ast::Entry;

    fn ids(language: Language) -> Vec<String> {
        let resource = FluentResource::try_new(source(language).to_owned()).expect("parses");
        let mut ids: Vec<String> = resource
            .entries()
            .filter_map(|entry| match entry {
                Entry::Message(message) => Some(message.id.name.to_owned()),
                _ => None,
            })
            .collect();
        ids.sort();
        ids
    }

    #[test]
    fn every_language_has_every_message_of_the_english_one() {
        let english = ids(Language::English);
        assert!(english.len() > 5, "{english:?}");
        assert_eq!(ids(Language::SimplifiedChinese), english);
    }

    #[test]
    fn counts_follow_each_languages_plural_rules() {
        let review = |language, count: usize| {
            text(
                language,
                "tray-review",
                &[("count", FluentValue::from(count))],
            )
        };
        assert_eq!(review(Language::English, 0), "No request waits");
        assert_eq!(review(Language::English, 1), "Review the waiting request");
        assert_eq!(review(Language::English, 3), "Review 3 waiting requests");
        assert_eq!(review(Language::SimplifiedChinese, 0), "没有等待处理的请求");
        assert_eq!(
            review(Language::SimplifiedChinese, 1),
            "查看 1 个等待处理的请求"
        );
        let ended = text(
            Language::SimplifiedChinese,
            "notice-task-body",
            &[
                ("outcome", FluentValue::from("failed")),
                ("tool", FluentValue::from("build")),
                ("server", FluentValue::from("ci")),
            ],
        );
        assert_eq!(ended, "ci 的 build 失败：原因见“任务”视图");
    }
}
