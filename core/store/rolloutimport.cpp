#include "store/rolloutimport.h"

#include "data/csv.h"
#include "data/jsonl.h"
#include "store/externalrun.h"
#include "store/runstore.h"
#include "util/boundedjson.h"
#include "util/jsoncomments.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <limits>
#include <nlohmann/json.hpp>
#include <set>
#include <unordered_set>

namespace rwb::store {

namespace fs = std::filesystem;
using json = nlohmann::ordered_json;

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// One row of a dump file: where it is (a line, or for a JSON array or table its row
// number) and its fields.
struct Row {
    size_t line = 0;
    std::string where; // "row 3" where a line number says nothing (a table in one JSON value)
    json obj;
};

struct DumpFile {
    std::string path;
    std::optional<int64_t> number; // the step number in its name ("12.jsonl", "completions_00012.csv")
    std::vector<Row> rows;
};

// A sample read from a row, with its step.
struct Parsed {
    int64_t step = 0;
    ExternalSample sample;
};

[[noreturn]] void failAt(const std::string &path, const Row &row, const std::string &reason)
{
    throw data::InputException({path, row.line, row.where.empty() ? reason : row.where + ": " + reason});
}

// The step number in a file's name: its last part that is all digits ("12.jsonl",
// "completions_00012.csv", wandb's "completions_7_9f3a.table.json"), else the digits it
// ends with ("step12.jsonl").
std::optional<int64_t> numberInName(const fs::path &p)
{
    const std::string stem = p.stem().string();
    auto digits = [](const std::string &t) {
        return !t.empty() && t.size() <= 15
               && std::all_of(t.begin(), t.end(), [](unsigned char c) { return std::isdigit(c); });
    };
    std::optional<int64_t> found;
    size_t start = 0;
    while (start <= stem.size()) {
        size_t end = stem.find_first_of("_-. ", start);
        if (end == std::string::npos)
            end = stem.size();
        const std::string part = stem.substr(start, end - start);
        if (digits(part))
            found = std::stoll(part);
        start = end + 1;
    }
    if (found)
        return found;
    size_t begin = stem.size();
    while (begin > 0 && std::isdigit(static_cast<unsigned char>(stem[begin - 1])))
        --begin;
    if (digits(stem.substr(begin)))
        return std::stoll(stem.substr(begin));
    return std::nullopt;
}

std::string extensionOf(const fs::path &p)
{
    std::string ext = p.extension().string();
    std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return std::tolower(c); });
    return ext;
}

const char *const kParquet = "parquet is not read: Debian has no library for it (Apache Arrow is not packaged). "
                             "Convert it to JSONL first, as docs/handoff.md shows";

std::vector<DumpFile> collectFiles(const std::vector<std::string> &paths, std::vector<std::string> &skipped)
{
    std::vector<DumpFile> files;
    for (const std::string &path : paths) {
        std::error_code ec;
        const fs::file_status st = fs::status(path, ec);
        if (ec || !fs::exists(st))
            throw data::InputException({path, 0, "no such file or folder"});
        if (fs::is_directory(st)) {
            size_t found = 0;
            for (auto it = fs::recursive_directory_iterator(path, fs::directory_options::skip_permission_denied, ec);
                 !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
                if (!it->is_regular_file(ec))
                    continue;
                const std::string ext = extensionOf(it->path());
                if (ext == ".parquet") {
                    skipped.push_back(it->path().string() + ": " + kParquet);
                } else if (ext == ".jsonl" || ext == ".json" || ext == ".csv") {
                    files.push_back({it->path().string(), numberInName(it->path()), {}});
                    ++found;
                }
            }
            if (ec)
                throw data::InputException({path, 0, "cannot list the folder: " + ec.message()});
            if (found == 0)
                throw data::InputException({path, 0, "the folder holds no .jsonl, .json or .csv file"});
        } else {
            if (extensionOf(path) == ".parquet")
                throw data::InputException({path, 0, kParquet});
            files.push_back({path, numberInName(path), {}});
        }
    }
    std::stable_sort(files.begin(), files.end(), [](const DumpFile &a, const DumpFile &b) {
        if (a.number.has_value() != b.number.has_value())
            return a.number.has_value();
        if (a.number && *a.number != *b.number)
            return *a.number < *b.number;
        return a.path < b.path;
    });
    return files;
}

// A CSV cell as the value a JSON dump would hold: empty → null (pandas writes NaN and
// None so), True/False → booleans, a number → a number, anything else → the text.
json cellValue(const std::string &s)
{
    if (s.empty())
        return nullptr;
    if (s == "True" || s == "true")
        return true;
    if (s == "False" || s == "false")
        return false;
    if (s == "nan" || s == "NaN")
        return nullptr;
    if (!std::isspace(static_cast<unsigned char>(s.front()))) {
        char *end = nullptr;
        const double v = std::strtod(s.c_str(), &end);
        if (end == s.c_str() + s.size() && std::isfinite(v)) {
            if (s.find_first_of(".eE") == std::string::npos && std::abs(v) < 9e15)
                return static_cast<int64_t>(v);
            return v;
        }
    }
    return s;
}

void readCsv(DumpFile &file, std::string_view text)
{
    const std::vector<data::CsvRecord> records = data::parseCsv(text, file.path);
    if (records.empty())
        return;
    const std::vector<std::string> &header = records.front().fields;
    std::set<std::string> seen;
    for (const std::string &name : header)
        if (!seen.insert(name).second)
            throw data::InputException({file.path, records.front().line, "the header names \"" + name + "\" twice"});
    for (size_t r = 1; r < records.size(); ++r) {
        const data::CsvRecord &rec = records[r];
        if (rec.fields.size() != header.size())
            throw data::InputException({file.path, rec.line,
                                        "has " + std::to_string(rec.fields.size()) + " fields where the header has "
                                            + std::to_string(header.size())});
        Row row;
        row.line = rec.line;
        row.obj = json::object();
        for (size_t c = 0; c < header.size(); ++c)
            row.obj[header[c]] = cellValue(rec.fields[c]);
        file.rows.push_back(std::move(row));
    }
}

void readJsonLines(DumpFile &file, std::string_view text)
{
    data::forEachRecordLine(text, nullptr, [&](size_t line, std::string_view content) {
        Row row;
        row.line = line;
        try {
            row.obj = util::parseJson<nlohmann::ordered_json>(content);
        } catch (const json::parse_error &e) {
            // Python's json.dumps writes a NaN or an infinite score as a bare NaN / Infinity
            // (verl's dumps do): read as null, None.
            bool read = false;
            if (!util::isTooDeep(e) && (content.find("NaN") != std::string_view::npos ||
                                        content.find("Infinity") != std::string_view::npos)) {
                row.obj = util::parseJsonOrDiscarded<nlohmann::ordered_json>(util::withNonFiniteAsNull(content));
                read = !row.obj.is_discarded();
            }
            if (!read)
                throw data::InputException({file.path, line, util::isTooDeep(e) ? util::tooDeepMessage()
                                                                                  : "not valid JSON at column " + std::to_string(e.byte)});
        }
        if (!row.obj.is_object())
            throw data::InputException(
                {file.path, line, std::string("expected a JSON object, found ") + row.obj.type_name()});
        file.rows.push_back(std::move(row));
    });
}

// A .json file: a wandb table ({"columns": […], "data": [[…], …]}), an array of objects,
// or JSON lines under another name.
void readJson(DumpFile &file, std::string_view text)
{
    json whole = util::parseJsonOrDiscarded<nlohmann::ordered_json>(text);
    if (whole.is_discarded() || (whole.is_object() && !(whole.contains("columns") && whole.contains("data")))) {
        readJsonLines(file, text);
        return;
    }
    if (whole.is_object()) {
        const json &columns = whole["columns"];
        const json &data = whole["data"];
        if (!columns.is_array() || !data.is_array())
            throw data::InputException({file.path, 0, "a table's \"columns\" and \"data\" must be arrays"});
        for (size_t c = 0; c < columns.size(); ++c)
            if (!columns[c].is_string())
                throw data::InputException({file.path, 0, "field \"columns[" + std::to_string(c) + "]\" must be a string"});
        for (size_t r = 0; r < data.size(); ++r) {
            Row row;
            row.where = "row " + std::to_string(r + 1);
            if (!data[r].is_array() || data[r].size() != columns.size())
                failAt(file.path, row,
                       "field \"data[" + std::to_string(r) + "]\" must be an array of " + std::to_string(columns.size())
                           + " values, one per column");
            row.obj = json::object();
            for (size_t c = 0; c < columns.size(); ++c)
                row.obj[columns[c].get<std::string>()] = data[r][c];
            file.rows.push_back(std::move(row));
        }
        return;
    }
    if (!whole.is_array())
        throw data::InputException({file.path, 0, std::string("expected JSON lines, an array of objects or a table, found ")
                                                      + whole.type_name()});
    for (size_t r = 0; r < whole.size(); ++r) {
        Row row;
        row.where = "record " + std::to_string(r + 1);
        if (!whole[r].is_object())
            failAt(file.path, row, std::string("expected a JSON object, found ") + whole[r].type_name());
        row.obj = std::move(whole[r]);
        file.rows.push_back(std::move(row));
    }
}

void readFile(DumpFile &file)
{
    const std::string text = data::readTextFile(file.path);
    const std::string ext = extensionOf(file.path);
    if (ext == ".csv")
        readCsv(file, text);
    else if (ext == ".json")
        readJson(file, text);
    else
        readJsonLines(file, text);
}

DumpFormat detect(const DumpFile &file, const Row &row)
{
    const json &o = row.obj;
    if (o.contains("prompt") && o.contains("completion"))
        return DumpFormat::Trl;
    if (o.contains("input") && o.contains("output")) {
        if (o.contains("score") || o.contains("gts"))
            return DumpFormat::Verl;
        return DumpFormat::OpenRlhf;
    }
    std::string fields;
    for (auto it = o.begin(); it != o.end(); ++it)
        fields += (fields.empty() ? "" : ", ") + it.key();
    failAt(file.path, row,
           "cannot tell which trainer wrote this (fields: " + (fields.empty() ? std::string("none") : fields)
               + "): verl's rows have input, output and score, TRL's prompt and completion, OpenRLHF's input, output and "
                 "reward; name the format with --format");
}

// The fields seen and what they became, in order of first sight.
class Mapping {
public:
    void note(const std::string &field, const std::string &target)
    {
        auto [it, added] = m_index.emplace(field, m_fields.size());
        if (added)
            m_fields.push_back({field, target, 0});
        ++m_fields[it->second].rows;
    }
    void split(std::vector<FieldMapping> &mapped, std::vector<FieldMapping> &unmapped) const
    {
        for (const FieldMapping &f : m_fields)
            (f.target.rfind("details", 0) == 0 || f.target.rfind("not imported", 0) == 0 ? unmapped : mapped)
                .push_back(f);
    }

private:
    std::vector<FieldMapping> m_fields;
    std::map<std::string, size_t> m_index;
};

// Reads one row into a sample.
class RowReader {
public:
    RowReader(const DumpFile &file, const Row &row, Mapping &mapping)
        : m_file(file), m_row(row), m_mapping(mapping)
    {
    }

    bool has(const char *field) const { return m_row.obj.contains(field); }
    const json &at(const char *field) const
    {
        auto it = m_row.obj.find(field);
        if (it == m_row.obj.end())
            failAt(m_file.path, m_row, std::string("missing field \"") + field + "\"");
        return *it;
    }
    [[noreturn]] void fail(const std::string &reason) const { failAt(m_file.path, m_row, reason); }

    // Text: a string, or a conversation (messages with "role" and "content") written one
    // message per line as "role: content".
    std::string text(const char *field, const std::string &target)
    {
        const json &v = at(field);
        std::string out;
        if (v.is_string()) {
            out = v.get<std::string>();
        } else if (v.is_array()) {
            for (size_t i = 0; i < v.size(); ++i) {
                const json &m = v[i];
                if (!m.is_object() || !m.contains("content") || !m["content"].is_string())
                    fail("field \"" + std::string(field) + "[" + std::to_string(i)
                         + "]\" must be a message with a string \"content\"");
                if (!out.empty())
                    out += '\n';
                if (m.contains("role") && m["role"].is_string())
                    out += m["role"].get<std::string>() + ": ";
                out += m["content"].get<std::string>();
            }
        } else {
            fail("field \"" + std::string(field) + "\" must be a string or a list of messages, not "
                 + v.type_name());
        }
        m_mapping.note(field, target);
        return out;
    }

    // A number; null is NaN (None); a boolean is 0 or 1.
    double number(const char *field, const std::string &target)
    {
        const double v = numberOf(field, at(field));
        m_mapping.note(field, target);
        return v;
    }

    double numberOf(const std::string &field, const json &v) const
    {
        if (v.is_null())
            return kNaN;
        if (v.is_boolean())
            return v.get<bool>() ? 1.0 : 0.0;
        if (!v.is_number())
            fail("field \"" + field + "\" must be a number or null, not " + v.type_name());
        return v.get<double>();
    }

    int64_t integer(const char *field, const std::string &target)
    {
        const json &v = at(field);
        int64_t out = 0;
        if (v.is_number_integer()) {
            out = v.get<int64_t>();
        } else if (v.is_number_float() && std::floor(v.get<double>()) == v.get<double>()
                   && std::abs(v.get<double>()) < 9e15) {
            out = static_cast<int64_t>(v.get<double>());
        } else {
            fail("field \"" + std::string(field) + "\" must be an integer, not "
                 + (v.is_number() ? std::string("a fraction") : std::string(v.type_name())));
        }
        m_mapping.note(field, target);
        return out;
    }

    // A group id: a string or an integer.
    std::string id(const char *field, const std::string &target)
    {
        const json &v = at(field);
        if (!v.is_string() && !v.is_number_integer())
            fail("field \"" + std::string(field) + "\" must be a string or an integer, not " + v.type_name());
        m_mapping.note(field, target);
        return v.is_string() ? v.get<std::string>() : std::to_string(v.get<int64_t>());
    }

    // Any value as one line of text (a string as it is).
    std::string asText(const char *field, const std::string &target)
    {
        const json &v = at(field);
        m_mapping.note(field, target);
        return v.is_string() ? v.get<std::string>() : v.dump(-1, ' ', false, json::error_handler_t::replace);
    }

    // Every field not in `taken`: numbers, booleans and nulls become reward components,
    // the rest goes to the rollout's details.
    void rest(const std::set<std::string> &taken, ExternalSample &s, json &details,
              const std::string &componentTarget)
    {
        for (auto it = m_row.obj.begin(); it != m_row.obj.end(); ++it) {
            if (taken.count(it.key()))
                continue;
            const json &v = it.value();
            if (v.is_number() || v.is_boolean() || v.is_null()) {
                s.components.emplace_back(it.key(), numberOf(it.key(), v));
                m_mapping.note(it.key(), componentTarget);
            } else {
                details[it.key()] = v;
                m_mapping.note(it.key(), "details");
            }
        }
    }

private:
    const DumpFile &m_file;
    const Row &m_row;
    Mapping &m_mapping;
};

std::string dumpDetails(const json &details)
{
    return details.dump(-1, ' ', false, json::error_handler_t::replace);
}

// verl's `_dump_generations`: input, output, gts (since 0.4), score, step, and every
// reward_extra_info the reward function returned (compute_score's dict keys).
std::optional<Parsed> readVerl(RowReader &r, int64_t fileStep)
{
    Parsed p;
    ExternalSample &s = p.sample;
    s.prompt = r.text("input", "prompt");
    s.completion = r.text("output", "completion");
    s.reward = r.number("score", "reward");
    p.step = r.has("step") ? r.integer("step", "step") : fileStep;
    if (r.has("gts"))
        s.gold = r.asText("gts", "gold answer");
    if (r.has("uid"))
        s.group = r.id("uid", "group");
    std::set<std::string> taken = {"input", "output", "score", "step", "gts", "uid"};
    if (r.has("pred") && (r.at("pred").is_string() || r.at("pred").is_null())) {
        // null: the reward function found no answer in the output.
        if (r.at("pred").is_string())
            s.answer = r.asText("pred", "answer");
        taken.insert("pred");
    }
    // The validation dump repeats the score as "reward" (verl's _validate adds it to the
    // reward extra info): the same value, not a component.
    if (r.has("reward") && (r.at("reward").is_number() || r.at("reward").is_null())) {
        const double again = r.number("reward", "reward (the score again, in validation dumps)");
        if ((std::isnan(again) && std::isnan(s.reward)) || again == s.reward)
            taken.insert("reward");
    }
    // rwb serve's verl route marks a None total as 0 with reward_none 1 (verl needs a
    // number): the reward is None again.
    if (r.has("reward_none") && (r.at("reward_none").is_number() || r.at("reward_none").is_boolean())) {
        if (r.number("reward_none", "None marker (rwb serve's reward_none: the reward is None)") != 0.0)
            s.reward = std::nan("");
        taken.insert("reward_none");
    }
    json details = json::object();
    r.rest(taken, s, details, "reward component");
    s.detailsJson = dumpDetails(details);
    return p;
}

// TRL's completions table: step, prompt, completion, one column per reward function,
// the log_extra columns, advantage (and "mode" since it logs eval rows too).
std::optional<Parsed> readTrl(RowReader &r, int64_t fileStep, const ImportOptions &options, int64_t &evalRows)
{
    if (r.has("mode")) {
        const std::string mode = r.asText("mode", "train or eval (eval rows skipped unless --include-eval)");
        if (mode == "eval" && !options.includeEval) {
            ++evalRows;
            return std::nullopt;
        }
    }
    Parsed p;
    ExternalSample &s = p.sample;
    s.prompt = r.text("prompt", "prompt");
    s.completion = r.text("completion", "completion");
    p.step = r.has("step") ? r.integer("step", "step") : fileStep;
    if (r.has("advantage")) {
        const double a = r.number("advantage", "advantage");
        if (!std::isnan(a))
            s.advantage = a;
    }
    std::set<std::string> taken = {"mode", "prompt", "completion", "step", "advantage", "reward", "image", "images"};
    for (const char *image : {"image", "images"})
        if (r.has(image))
            r.asText(image, "not imported (images)");
    if (r.has("group")) {
        s.group = r.id("group", "group");
        taken.insert("group");
    }
    json details = json::object();
    r.rest(taken, s, details, "reward function");
    if (r.has("reward")) {
        s.reward = r.number("reward", "reward");
    } else if (!s.components.empty()) {
        // TRL's total: the weighted sum of the functions' rewards, None left out (nansum).
        double total = 0.0;
        for (const auto &[name, value] : s.components) {
            double w = 1.0;
            if (!options.weights.empty()) {
                auto it = options.weights.find(name);
                w = it == options.weights.end() ? 0.0 : it->second;
            }
            if (!std::isnan(value) && w != 0.0)
                total += w * value;
        }
        s.reward = total;
    }
    s.detailsJson = dumpDetails(details);
    return p;
}

// OpenRLHF's dumped samples: batch_inference's {input, output, reward}, generation's
// {input, output}, with the step, label and group where a user's dump adds them.
std::optional<Parsed> readOpenRlhf(RowReader &r, int64_t fileStep)
{
    Parsed p;
    ExternalSample &s = p.sample;
    s.prompt = r.text("input", "prompt");
    s.completion = r.text("output", "completion");
    s.reward = r.has("reward") ? r.number("reward", "reward") : kNaN;
    p.step = r.has("step") ? r.integer("step", "step") : r.has("global_step") ? r.integer("global_step", "step") : fileStep;
    std::set<std::string> taken = {"input", "output", "reward", "step", "global_step"};
    if (r.has("label")) {
        s.gold = r.asText("label", "gold answer");
        taken.insert("label");
    }
    for (const char *g : {"group", "uid"})
        if (r.has(g)) {
            s.group = r.id(g, "group");
            taken.insert(g);
            break;
        }
    json details = json::object();
    r.rest(taken, s, details, "reward component");
    s.detailsJson = dumpDetails(details);
    return p;
}

// What a file's rows are, without their step: two files with the same signature hold the
// same rollouts.
std::string signatureOf(const std::vector<Parsed> &rows)
{
    json sig = json::array();
    for (const Parsed &p : rows) {
        json comps = json::array();
        for (const auto &[name, value] : p.sample.components)
            comps.push_back({name, std::isnan(value) ? json(nullptr) : json(value)});
        sig.push_back({p.sample.prompt, p.sample.completion, std::isnan(p.sample.reward) ? json(nullptr) : json(p.sample.reward),
                       p.sample.advantage ? json(*p.sample.advantage) : json(nullptr), comps});
    }
    return sig.dump(-1, ' ', false, json::error_handler_t::replace);
}

std::string defaultRunName(const std::string &path)
{
    fs::path p = fs::path(path).lexically_normal();
    std::string name = p.filename().string();
    if (name.empty() || name == ".")
        name = p.parent_path().filename().string();
    if (name.empty() || name == "." || name == "..")
        name = fs::absolute(p).lexically_normal().filename().string();
    return name.empty() ? std::string("imported") : name;
}

} // namespace

const char *dumpFormatName(DumpFormat format)
{
    switch (format) {
    case DumpFormat::Verl:
        return "verl";
    case DumpFormat::Trl:
        return "trl";
    case DumpFormat::OpenRlhf:
        return "openrlhf";
    case DumpFormat::Auto:
        break;
    }
    return "auto";
}

std::optional<DumpFormat> parseDumpFormat(std::string_view name)
{
    for (DumpFormat f : {DumpFormat::Auto, DumpFormat::Verl, DumpFormat::Trl, DumpFormat::OpenRlhf})
        if (name == dumpFormatName(f))
            return f;
    return std::nullopt;
}

ImportReport importRollouts(RunStore &store, const std::vector<std::string> &paths, const ImportOptions &options)
{
    if (paths.empty())
        throw data::InputException({"", 0, "no file or folder to import"});
    ImportReport report;
    std::vector<DumpFile> files = collectFiles(paths, report.skipped);

    // Read and check everything before the store is touched.
    DumpFormat format = options.format;
    Mapping mapping;
    std::map<int64_t, std::vector<ExternalSample>> steps;
    std::string previousSignature, previousPath;
    int64_t evalRows = 0;
    bool stepFromName = false;
    for (size_t f = 0; f < files.size(); ++f) {
        DumpFile &file = files[f];
        readFile(file);
        if (file.rows.empty()) {
            report.skipped.push_back(file.path + ": no rows");
            continue;
        }
        if (options.format == DumpFormat::Auto) {
            const DumpFormat found = detect(file, file.rows.front());
            if (format == DumpFormat::Auto)
                format = found;
            else if (found != format)
                failAt(file.path, file.rows.front(),
                       std::string("the rows look like ") + dumpFormatName(found) + "'s, the files before like "
                           + dumpFormatName(format) + "'s: import them separately, or name the format with --format");
        }
        const int64_t fileStep = file.number ? *file.number : static_cast<int64_t>(f) + 1;
        std::vector<Parsed> parsed;
        for (const Row &row : file.rows) {
            RowReader reader(file, row, mapping);
            std::optional<Parsed> p;
            switch (format) {
            case DumpFormat::Verl:
                p = readVerl(reader, fileStep);
                break;
            case DumpFormat::Trl:
                p = readTrl(reader, fileStep, options, evalRows);
                break;
            case DumpFormat::OpenRlhf:
            case DumpFormat::Auto:
                p = readOpenRlhf(reader, fileStep);
                break;
            }
            if (!p)
                continue;
            if (!row.obj.contains("step") && !row.obj.contains("global_step"))
                stepFromName = true;
            parsed.push_back(std::move(*p));
        }
        if (parsed.empty()) {
            report.skipped.push_back(file.path + ": no rows to import");
            continue;
        }
        std::string signature = signatureOf(parsed);
        if (signature == previousSignature) {
            report.skipped.push_back(file.path + ": the same rollouts as " + previousPath
                                     + " (logged again by a later optimizer step)");
            continue;
        }
        previousSignature = std::move(signature);
        previousPath = file.path;
        report.files.push_back(file.path);
        for (Parsed &p : parsed)
            steps[p.step].push_back(std::move(p.sample));
    }
    if (format == DumpFormat::Auto || steps.empty())
        throw data::InputException({paths.front(), 0, "no rollouts to import"});
    if (evalRows > 0)
        report.skipped.push_back(std::to_string(evalRows) + " eval rows (\"mode\": \"eval\"; --include-eval imports them)");

    if (!options.weights.empty()) {
        if (format != DumpFormat::Trl)
            throw data::InputException({paths.front(), 0, "--weights is for TRL's table, whose total reward is not logged"});
        std::set<std::string> columns;
        for (const auto &[step, samples] : steps)
            for (const ExternalSample &s : samples)
                for (const auto &c : s.components)
                    columns.insert(c.first);
        for (const auto &[name, w] : options.weights)
            if (!columns.count(name))
                throw data::InputException({paths.front(), 0, "--weights names \"" + name + "\", which no column of the dump has"});
    }

    // Groups.
    bool anyGroup = false, anyAdvantage = false, anyReward = false;
    for (auto &[step, samples] : steps) {
        std::unordered_set<std::string> keys;
        for (size_t i = 0; i < samples.size(); ++i) {
            ExternalSample &s = samples[i];
            if (options.groupSize > 0)
                s.group = "block-" + std::to_string(i / static_cast<size_t>(options.groupSize));
            anyGroup = anyGroup || !s.group.empty();
            anyAdvantage = anyAdvantage || s.advantage.has_value();
            anyReward = anyReward || !std::isnan(s.reward);
            keys.insert(s.group.empty() ? promptIdOf(s.prompt) : s.group);
        }
        report.groups += static_cast<int64_t>(keys.size());
        report.rollouts += static_cast<int64_t>(samples.size());
        if (options.groupSize > 0 && samples.size() % static_cast<size_t>(options.groupSize) != 0)
            report.computed.push_back("step " + std::to_string(step) + " has " + std::to_string(samples.size())
                                      + " rollouts, not a multiple of the group size "
                                      + std::to_string(options.groupSize) + ": its last group is smaller");
    }
    report.steps = static_cast<int64_t>(steps.size());
    report.format = format;
    mapping.split(report.mapped, report.unmapped);
    if (stepFromName)
        report.computed.push_back("steps: from the file names (rows without a step field)");
    if (options.groupSize > 0)
        report.computed.push_back("groups: blocks of " + std::to_string(options.groupSize) + " rollouts in each step");
    else if (!anyGroup)
        report.computed.push_back("groups: the rollouts of a step with the same prompt");
    if (!anyReward)
        report.computed.push_back("rewards: none in the dump (every reward is None)");
    else if (format == DumpFormat::Trl
             && std::none_of(report.mapped.begin(), report.mapped.end(),
                             [](const FieldMapping &m) { return m.target == "reward"; }))
        report.computed.push_back(options.weights.empty()
                                      ? "reward: the sum of the reward functions' columns (TRL's default weights of 1; "
                                        "--weights to change), None left out"
                                      : "reward: the weighted sum of the columns --weights names, None left out");
    if (!anyAdvantage)
        report.computed.push_back("advantages: GRPO's, (reward − group mean) / (group std + 1e-4)");
    report.computed.push_back("completion lengths in tokens: not in the dump (the length curves stay empty)");

    // Write.
    report.runName = options.runName.empty() ? defaultRunName(paths.front()) : options.runName;
    json config = {{"imported", {{"format", dumpFormatName(format)}, {"paths", paths}, {"files", report.files}}}};
    if (options.groupSize > 0)
        config["imported"]["group_size"] = options.groupSize;
    if (!options.weights.empty())
        config["imported"]["weights"] = options.weights;
    report.runId = store.beginRun(report.runName, RunKind::External, config.dump(), options.task);
    try {
        for (auto &[step, samples] : steps)
            writeExternalStep(store, report.runId, step, std::move(samples));
    } catch (const std::exception &e) {
        store.finishRun(report.runId, RunStatus::Failed, e.what());
        throw;
    }
    store.finishRun(report.runId, RunStatus::Finished);
    return report;
}

} // namespace rwb::store
