// The CI formats (SPEC §3.1): gcc, github, sarif and junit, each listing the findings of the
// check (findings.cpp) and nothing else, in report order. Collisions are findings only with
// --fail-on-collision; they stream through as the check hands them over.
#include "report/ci_formats.hpp"


#include <cstdint>

namespace collide::detail {

namespace {

// FILE:LINE:COL: error: MESSAGE [RULE], as compilers write them: editors and CI problem
// matchers read it.
class GccWriter final : public CiWriter {
public:
    using CiWriter::CiWriter;

private:
    void finding(const Scene&, Finding&& f, bool) override {
        buf_ += one_line(place_text(f.at));
        buf_ += f.kind == Finding::Kind::Warning ? ": warning: " : ": error: ";
        buf_ += one_line(f.message);
        buf_ += " [";
        buf_ += one_line(f.rule);
        buf_ += "]\n";
    }
    // A finding is one line: line breaks in ids become spaces.
    static std::string one_line(std::string s) {
        for (char& c : s)
            if (c == '\n' || c == '\r') c = ' ';
        return s;
    }
};

// GitHub Actions workflow commands, escaped as the runner unescapes them (the toolkit's
// command.ts): '%', CR and LF everywhere; ':' and ',' too in properties.
class GithubWriter final : public CiWriter {
public:
    using CiWriter::CiWriter;

private:
    void finding(const Scene&, Finding&& f, bool) override {
        buf_ += f.kind == Finding::Kind::Warning ? "::warning file=" : "::error file=";
        buf_ += escape(f.at.file, true);
        if (f.at.line > 0) {
            buf_ += ",line=" + std::to_string(f.at.line);
            if (f.at.column > 0) buf_ += ",col=" + std::to_string(f.at.column);
        }
        buf_ += ",title=";
        buf_ += escape(f.rule, true);
        buf_ += "::";
        buf_ += escape(f.message, false);
        buf_ += '\n';
    }
    static std::string escape(const std::string& s, bool property) {
        std::string out;
        for (const char c : s) {
            if (c == '%') out += "%25";
            else if (c == '\r') out += "%0D";
            else if (c == '\n') out += "%0A";
            else if (property && c == ':') out += "%3A";
            else if (property && c == ',') out += "%2C";
            else out += c;
        }
        return out;
    }
};

}  // namespace

std::string fingerprint(const Finding& f) {
    // FNV-1a (Fowler, Noll, Vo), 64 bits, over the baseline key: rule, input, ids.
    std::uint64_t h = 14695981039346656037ull;
    for (const std::string* part : {&f.rule, &f.scene, &f.a, &f.b}) {
        for (const char c : *part) {
            h ^= static_cast<unsigned char>(c);
            h *= 1099511628211ull;
        }
        h ^= 0xFF;  // a separator no UTF-8 text holds
        h *= 1099511628211ull;
    }
    static const char* kHex = "0123456789abcdef";
    std::string out(16, '0');
    for (int i = 15; i >= 0; --i, h >>= 4) out[static_cast<std::size_t>(i)] = kHex[h & 0xF];
    return out;
}

std::unique_ptr<FormatWriter> make_ci_writer(std::ostream& out, Format format, const ReportOptions& options) {
    switch (format) {
        case Format::Gcc: return std::make_unique<GccWriter>(out, options);
        case Format::Github: return std::make_unique<GithubWriter>(out, options);
        case Format::Sarif: return make_sarif_writer(out, options);
        case Format::Junit: return make_junit_writer(out, options);
        default: break;
    }
    return nullptr;
}

}  // namespace collide::detail
