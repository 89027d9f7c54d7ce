//! `--ai-*`: the AI options, checked.

use crate::cli::ScanArgs;
use crate::llm::provider::Provider;
use crate::llm::{AiOptions, DEFAULT_MAX_FILES, DEFAULT_MAX_TOKENS};

/// The AI options from the command line: `None` when no AI flag was given
/// (nothing is sent), an error for an incomplete or contradictory set.
pub fn options(args: &ScanArgs) -> Result<Option<AiOptions>, String> {
    let Some(provider) = args.ai_provider.as_deref() else {
        let stray = [
            (args.ai_model.is_some(), "--ai-model"),
            (args.ai_key.is_some(), "--ai-key"),
            (args.ai_max_files.is_some(), "--ai-max-files"),
            (args.ai_max_token.is_some(), "--ai-max-token"),
            (args.ai_dry_run, "--ai-dry-run"),
            (args.ai_no_cache, "--ai-no-cache"),
        ];
        if let Some((_, flag)) = stray.iter().find(|(given, _)| *given) {
            return Err(format!(
                "{flag} needs --ai-provider (openai, ollama, … or a URL) and --ai-model"
            ));
        }
        return Ok(None);
    };
    let provider = Provider::parse(provider)?;
    let model = match args.ai_model.as_deref().map(str::trim) {
        Some(m) if !m.is_empty() => m.to_string(),
        _ => return Err("--ai-provider needs --ai-model NAME".into()),
    };
    let env = |name: &str| std::env::var(name).ok().filter(|v| !v.trim().is_empty());
    let key = args
        .ai_key
        .clone()
        .filter(|k| !k.trim().is_empty())
        .or_else(|| env("PORTOLAN_AI_KEY"))
        .or_else(|| {
            provider
                .is_openai()
                .then(|| env("OPENAI_API_KEY"))
                .flatten()
        });
    if key.is_none() && provider.is_openai() && !args.ai_dry_run {
        return Err(
            "--ai-provider openai needs a key: --ai-key, PORTOLAN_AI_KEY or OPENAI_API_KEY".into(),
        );
    }
    let max_files = args.ai_max_files.unwrap_or(DEFAULT_MAX_FILES);
    let max_tokens = args.ai_max_token.unwrap_or(DEFAULT_MAX_TOKENS);
    if max_tokens < 256 {
        return Err("--ai-max-token must be at least 256".into());
    }
    Ok(Some(AiOptions {
        provider,
        model,
        key,
        max_files,
        max_tokens,
        dry_run: args.ai_dry_run,
        use_cache: !args.ai_no_cache,
    }))
}
