//! The HTML template set (`templates/`): one base page with the screen and `@media print`
//! styles, one template per sheet. Every value is escaped by the template engine
//! (auto-escaping of `.html` templates), so a name is always text, never markup. The
//! public pages of the HTTP service are to render from the same set.
use minijinja::Environment;
use serde::Serialize;

use crate::RenderError;

/// The templates, compiled into the crate.
const TEMPLATES: &[(&str, &str)] = &[
    ("base.html", include_str!("../templates/base.html")),
    ("pairings.html", include_str!("../templates/pairings.html")),
    ("wall.html", include_str!("../templates/wall.html")),
    (
        "standings.html",
        include_str!("../templates/standings.html"),
    ),
    (
        "crosstable.html",
        include_str!("../templates/crosstable.html"),
    ),
];

fn environment() -> Result<Environment<'static>, RenderError> {
    let mut env = Environment::new();
    // Auto-escaping by name: every template here ends in `.html`.
    env.set_auto_escape_callback(|_| minijinja::AutoEscape::Html);
    for (name, source) in TEMPLATES {
        env.add_template(name, source)
            .map_err(|e| RenderError::Output(format!("template {name}: {e}")))?;
    }
    Ok(env)
}

/// Renders template `name` with `context`.
pub fn render<T: Serialize>(name: &str, context: &T) -> Result<String, RenderError> {
    let env = environment()?;
    let t = env
        .get_template(name)
        .map_err(|e| RenderError::Output(format!("template {name}: {e}")))?;
    t.render(context)
        .map_err(|e| RenderError::Output(format!("template {name}: {e}")))
}

/// The template set's names and sources (for a caller that serves them as they are).
#[must_use]
pub fn templates() -> &'static [(&'static str, &'static str)] {
    TEMPLATES
}
