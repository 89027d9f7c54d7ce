use portolan_plugin_sdk::prelude::*;

pub struct Flask;

impl Analyzer for Flask {
    fn tech(&self) -> Tech {
        Tech::new("python_flask", "Python", "Flask")
            .aliases(["flask", "python-flask"])
            .files(["*.py"])
            .detect(Detect::files(["*.py"]).regex([r"^\s*(from\s+flask\b.*\bimport\b|import\s+flask\b)"]))
    }

    fn analyze(&self, file: &SourceFile, out: &mut Output) {
        let code = file.python();
        for at in code.find_all(".route(") {
            if let Some(lit) = code.string_at(at + ".route(".len()) {
                out.endpoint(Endpoint::new("GET", lit.value).at(file, file.line_of(at)));
            }
        }
    }
}
