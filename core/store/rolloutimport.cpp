#include "store/rolloutimport.h"

#include "data/csv.h"
#include "data/jsonl.h"
#include "data/messagetext.h"
#include "store/externalrun.h"
#include "store/parquetreader.h"
#include "store/runstore.h"
#include "tokenizer/tokenizer.h"
#include "util/boundedjson.h"
#include "util/jsoncomments.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <memory>
#include <new>
#include <nlohmann/json.hpp>
#include <set>
#include <stdexcept>
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
    // A wandb table whose rows each hold several samples side by side (verl's
    // val/generations), read as one row per sample: its tables repeat the rows before.
    bool wideTable = false;
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

// N of a folder named step_N (prime-rl's), step-N, global_stepN or global_step_N (verl's).
std::optional<int64_t> stepFolderNumber(const fs::path &dir)
{
    const std::string name = dir.filename().string();
    for (const char *prefix : {"step_", "step-", "global_step_", "global_step"}) {
        const std::string rest = name.rfind(prefix, 0) == 0 ? name.substr(std::strlen(prefix)) : std::string();
        if (!rest.empty() && rest.size() <= 15
            && std::all_of(rest.begin(), rest.end(), [](unsigned char c) { return std::isdigit(c); }))
            return std::stoll(rest);
    }
    return std::nullopt;
}

// The step of a dump file `depth` folders below the folder searched (0 for a file named
// itself): the number in its name, else that of prime-rl's layout it is in
// (step_N/{train,eval}/{all,effective}/traces.jsonl), else that of the nearest step_N
// folder above it inside the folder searched. Never a folder above that: a checkpoint's
// global_step_500/samples/ may hold the dumps of many steps.
std::optional<int64_t> stepOfPath(const fs::path &p, int depth)
{
    if (std::optional<int64_t> n = numberInName(p))
        return n;
    const fs::path subset = p.parent_path(), kind = subset.parent_path();
    if (p.filename() == "traces.jsonl" && (subset.filename() == "all" || subset.filename() == "effective")
        && (kind.filename() == "train" || kind.filename() == "eval"))
        if (std::optional<int64_t> n = stepFolderNumber(kind.parent_path()))
            return n;
    fs::path dir = p.parent_path();
    for (int d = 0; d < depth && !dir.empty(); ++d, dir = dir.parent_path())
        if (std::optional<int64_t> n = stepFolderNumber(dir))
            return n;
    return std::nullopt;
}

std::string extensionOf(const fs::path &p)
{
    std::string ext = p.extension().string();
    std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return std::tolower(c); });
    return ext;
}

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
                if (it->path().filename() == "trainer_state.json") {
                    // Hugging Face Trainer's state in a checkpoint (TRL's): no rollouts; TRL's
                    // evaluation steps are read from it (TrlEvalSteps).
                    skipped.push_back(it->path().string() + ": the trainer's state, not a dump");
                } else if (ext == ".jsonl" || ext == ".json" || ext == ".csv" || ext == ".parquet") {
                    files.push_back({it->path().string(), stepOfPath(it->path(), it.depth()), {}});
                    ++found;
                }
            }
            if (ec)
                throw data::InputException({path, 0, "cannot list the folder: " + ec.message()});
            if (found == 0)
                throw data::InputException({path, 0, "the folder holds no .jsonl, .json, .csv or .parquet file"});
        } else {
            files.push_back({path, stepOfPath(path, /*depth=*/0), {}});
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
        // verl's val/generations (ValidationGenerationsLogger): "step", then input_i,
        // output_i, score_i for each of the samples it logs, one row per validation.
        size_t wide = 0;
        if (columns.size() >= 4 && (columns.size() - 1) % 3 == 0 && columns[0] == "step") {
            wide = (columns.size() - 1) / 3;
            for (size_t i = 0; i < wide && wide; ++i) {
                const std::string n = std::to_string(i + 1);
                if (columns[1 + 3 * i] != "input_" + n || columns[2 + 3 * i] != "output_" + n
                    || columns[3 + 3 * i] != "score_" + n)
                    wide = 0;
            }
        }
        file.wideTable = wide > 0;
        for (size_t r = 0; r < data.size(); ++r) {
            Row row;
            row.where = "row " + std::to_string(r + 1);
            if (!data[r].is_array() || data[r].size() != columns.size())
                failAt(file.path, row,
                       "field \"data[" + std::to_string(r) + "]\" must be an array of " + std::to_string(columns.size())
                           + " values, one per column");
            if (wide) {
                // One row per sample: {step, input, output, score, sample}, as verl's
                // rollout dumps name them.
                for (size_t i = 0; i < wide; ++i) {
                    Row one;
                    one.where = "row " + std::to_string(r + 1) + ", sample " + std::to_string(i + 1);
                    one.obj = json::object();
                    one.obj["step"] = data[r][0];
                    one.obj["input"] = data[r][1 + 3 * i];
                    one.obj["output"] = data[r][2 + 3 * i];
                    one.obj["score"] = data[r][3 + 3 * i];
                    one.obj["sample"] = static_cast<int64_t>(i + 1);
                    file.rows.push_back(std::move(one));
                }
                continue;
            }
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

// A parquet table (TRL's own completions files): each row an object of its columns.
void readParquet(DumpFile &file, ParquetReader &parquet)
{
    ParquetReader::Table table = parquet.read(file.path);
    std::set<std::string> seen;
    for (const std::string &name : table.columns)
        if (!seen.insert(name).second)
            throw data::InputException({file.path, 0, "the table has two columns named \"" + name + "\""});
    for (size_t r = 0; r < table.rows.size(); ++r) {
        Row row;
        row.where = "row " + std::to_string(r + 1);
        row.obj = json::object();
        for (size_t c = 0; c < table.columns.size(); ++c)
            row.obj[table.columns[c]] = std::move(table.rows[r][c]);
        file.rows.push_back(std::move(row));
    }
}

// How far a preview reads (previewImport); the import itself reads everything.
struct ReadLimits {
    size_t maxRows = 0; // rollouts; of a JSON-lines or CSV file, this many records
};
// A .json file (one JSON value: a table, an array) is read whole for a preview, or not at
// all: up to this size.
constexpr uintmax_t kPreviewJsonBytes = 8u << 20;
// Of a JSON-lines or CSV file a preview reads at most this much (its first records).
constexpr size_t kPreviewTextBytes = 32u << 20;

// The first `lines` non-blank lines of a text file; `cut` when more text follows.
std::string readLinesPrefix(const std::string &path, size_t lines, bool &cut)
{
    std::ifstream in(path, std::ios::binary);
    if (!in)
        throw data::InputException({path, 0, std::string("cannot open: ") + std::strerror(errno)});
    std::string text, line;
    size_t read = 0;
    cut = false;
    while (std::getline(in, line)) {
        const bool blank = line.find_first_not_of(" \t\r") == std::string::npos;
        if (!blank && (read >= lines || text.size() >= kPreviewTextBytes)) {
            cut = true;
            break;
        }
        text += line;
        text += '\n';
        read += blank ? 0 : 1;
    }
    if (in.bad())
        throw data::InputException({path, 0, "cannot read the file"});
    return text;
}

// The lines of `text` before line `line` (1-based).
std::string linesBefore(const std::string &text, size_t line)
{
    size_t end = 0;
    for (size_t n = 1; n < line && end != std::string::npos; ++n) {
        end = text.find('\n', end);
        if (end != std::string::npos)
            ++end;
    }
    return end == std::string::npos ? text : text.substr(0, end);
}

// Reads a file's rows; with `limits`, only the first records of a JSON-lines or CSV file
// (`cut` when it holds more). The caller leaves parquet files and large .json files out
// of a preview.
void readFileAs(DumpFile &file, ParquetReader &parquet, const ReadLimits *limits, bool &cut)
{
    cut = false;
    const std::string ext = extensionOf(file.path);
    if (ext == ".parquet") {
        readParquet(file, parquet);
        return;
    }
    if (!limits || ext == ".json") {
        const std::string text = data::readTextFile(file.path);
        if (ext == ".csv")
            readCsv(file, text);
        else if (ext == ".json")
            readJson(file, text);
        else
            readJsonLines(file, text);
        return;
    }
    if (ext != ".csv") {
        readJsonLines(file, readLinesPrefix(file.path, limits->maxRows, cut));
        return;
    }
    size_t lines = limits->maxRows + 1; // and the header
    for (;;) {
        const std::string text = readLinesPrefix(file.path, lines, cut);
        try {
            readCsv(file, text);
            return;
        } catch (const data::InputException &e) {
            // The prefix may end inside a quoted field that closes further on: the records
            // before the one it opens, or when that is the first, more lines.
            if (!cut || e.error().reason.find("never closed") == std::string::npos || text.size() >= kPreviewTextBytes)
                throw;
            file.rows.clear();
            if (e.error().line > 2) {
                readCsv(file, linesBefore(text, e.error().line));
                return;
            }
            lines *= 2;
        }
    }
}

// Reads a file's rows; one too big for memory is an InputException naming it.
void readFile(DumpFile &file, ParquetReader &parquet, const ReadLimits *limits, bool &cut)
{
    try {
        readFileAs(file, parquet, limits, cut);
        return;
    } catch (const std::bad_alloc &) {
    } catch (const std::length_error &) {
    }
    const size_t rows = file.rows.size();
    std::vector<Row>().swap(file.rows);
    throw data::InputException({file.path, 0, "does not fit in memory (after " + std::to_string(rows)
                                                  + " rows): split it into smaller files, or import fewer at once"});
}

DumpFormat detect(const DumpFile &file, const Row &row)
{
    const json &o = row.obj;
    if (o.contains("traces") && (o.contains("task") || o.contains("env")))
        return DumpFormat::PrimeRl;
    // NeMo-RL's Logger.log_batched_dict_as_jsonl adds "idx" to every line.
    if (o.contains("token_loss_mask") || (o.contains("content") && (o.contains("input_lengths") || o.contains("idx"))))
        return DumpFormat::NemoRl;
    if ((o.contains("observation_tokens") && o.contains("action_ranges"))
        || (o.contains("global_step") && o.contains("text") && o.contains("reward")))
        return DumpFormat::OpenRlhf;
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
                 "reward (or global_step, text and reward; or observation_tokens and action_ranges), prime-rl's traces and "
                 "task, NeMo-RL's content and token_loss_mask; name the format with --format");
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
    const json &object() const { return m_row.obj; }
    const std::string &path() const { return m_file.path; }
    // Records that `field` (a nested one as "traces[].rewards") became `target`.
    void note(const std::string &field, const std::string &target) { m_mapping.note(field, target); }

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
    // A val/generations table's sample index (its input_i, output_i, score_i): details.
    if (r.has("sample") && r.at("sample").is_number_integer()) {
        details["sample"] = r.at("sample");
        r.note("sample", "details (the sample's place in verl's val/generations table)");
        taken.insert("sample");
    }
    r.rest(taken, s, details, "reward component");
    s.detailsJson = dumpDetails(details);
    return p;
}

// TRL's step: an integer, or an integer's text (TRL before 0.28 logs str(global_step)).
int64_t trlStep(RowReader &r)
{
    const json &v = r.at("step");
    if (!v.is_string())
        return r.integer("step", "step");
    const std::string t = v.get<std::string>();
    int64_t n = 0;
    const auto [end, ec] = std::from_chars(t.data(), t.data() + t.size(), n);
    if (t.empty() || ec != std::errc() || end != t.data() + t.size())
        r.fail("field \"step\" must be an integer or its text (TRL before 0.28 logs it as text), not \"" + t + "\"");
    r.note("step", "step");
    return n;
}

// TRL's prompt or completion: text, or a conversation written one message per line as
// "role: text". A message with tool calls (an assistant message of "tool_calls" only, as
// TRL's tool loop and OpenAI write a call) shows them as data::messageText does
// (<tool_call>{"name", "arguments"}</tool_call>), and the messages themselves are kept in
// the details under the field's name.
std::string trlText(RowReader &r, const char *field, const std::string &target, json &details)
{
    const json &v = r.at(field);
    auto special = [](const json &m) {
        return m.is_object()
               && ((m.contains("tool_calls") && !m["tool_calls"].is_null())
                   || !m.contains("content") || !m["content"].is_string());
    };
    if (!v.is_array() || std::none_of(v.begin(), v.end(), special))
        return r.text(field, target);
    std::string out;
    bool calls = false;
    for (size_t i = 0; i < v.size(); ++i) {
        const json &m = v[i];
        std::string text;
        try {
            text = data::messageText(nlohmann::json(m));
        } catch (const std::invalid_argument &e) {
            r.fail("field \"" + std::string(field) + "[" + std::to_string(i) + "]\": " + e.what());
        }
        calls = calls || (m.contains("tool_calls") && !m["tool_calls"].is_null());
        if (!out.empty())
            out += '\n';
        if (m.contains("role") && m["role"].is_string())
            out += m["role"].get<std::string>() + ": ";
        out += text;
    }
    if (calls) {
        details[field] = v;
        r.note(field, target + " (tool calls as <tool_call> text; the messages also in the details)");
    } else {
        r.note(field, target);
    }
    return out;
}

// The evaluations TRL logged, from the trainer_state.json files beside its completions
// folder (<output_dir>/trainer_state.json, <output_dir>/checkpoint-N/trainer_state.json,
// or copied into the folder itself). TRL's table has no mode column: an evaluation's
// log() writes the eval rows to completions_{step:05d} of the step it ran at, over that
// step's train rows (trl/trainer/grpo_trainer.py, GRPOTrainer.log), and the state's
// log_history has an "eval_…" entry at that step.
class TrlEvalSteps {
public:
    // A row of the table at `path` is at `step`: whether it is an eval row.
    bool isEval(const std::string &path, int64_t step)
    {
        State &state = stateNear(path);
        state.maxTableStep = std::max(state.maxTableStep, step);
        m_anyParquet = m_anyParquet || extensionOf(path) == ".parquet";
        return state.steps.count(step) > 0;
    }

    // A row of `path` at `step` skipped, or imported, as an eval row.
    void count(const std::string &path, int64_t step) { ++m_rows[{path, step}]; }

    // The report's lines: the files whose rows were eval rows, the states read, and what
    // could not be known.
    void report(ImportReport &report, bool includeEval) const
    {
        for (const auto &[key, rows] : m_rows) {
            const State &state = m_states.at(fs::path(key.first).parent_path().string());
            const std::string why = std::to_string(rows) + " eval rows: " + state.files.back() + " logs an evaluation at step "
                                    + std::to_string(key.second) + ", whose completions TRL writes over that step's table";
            if (includeEval)
                report.computed.push_back(key.first + ": " + why + " (imported, \"mode\": \"eval\" in their details)");
            else
                report.skipped.push_back(key.first + ": " + why + "; --include-eval imports them");
        }
        bool anyState = false;
        for (const auto &[folder, state] : m_states) {
            for (const std::string &note : state.notes)
                report.computed.push_back(note);
            if (!state.files.empty()) {
                anyState = true;
                std::string steps;
                for (int64_t s : state.steps)
                    steps += (steps.empty() ? "" : ", ") + std::to_string(s);
                report.computed.push_back("eval steps of " + folder + ": " + (steps.empty() ? "none" : steps) + ", from "
                                          + state.files.back()
                                          + (state.maxTableStep > state.lastStep
                                                 ? " (it ends at step " + std::to_string(state.lastStep)
                                                       + ": later tables are taken as train rows)"
                                                 : ""));
            }
        }
        if (m_anyParquet && !anyState)
            report.computed.push_back(
                "eval rows: no trainer_state.json beside the completions folder (in checkpoint-N/ of the output folder): "
                "a table TRL wrote at an evaluation step holds that evaluation's rows, taken here as train rows");
    }

private:
    struct State {
        std::vector<std::string> files; // the trainer_state.json files read, the latest last
        std::vector<std::string> notes; // files that could not be read
        std::set<int64_t> steps;        // steps with an evaluation
        int64_t lastStep = -1;          // the latest global_step of the files
        int64_t maxTableStep = -1;      // the latest step of a table in the folder asked about
    };

    State &stateNear(const std::string &path)
    {
        const fs::path folder = fs::path(path).parent_path();
        auto [it, added] = m_states.try_emplace(folder.string());
        State &state = it->second;
        if (added) {
            std::vector<fs::path> places = {folder};
            if (folder.filename() == "completions")
                places.push_back(folder.parent_path());
            std::vector<std::pair<int64_t, fs::path>> found;
            for (const fs::path &place : places) {
                std::error_code ec;
                if (fs::is_regular_file(place / "trainer_state.json", ec))
                    found.emplace_back(-1, place / "trainer_state.json");
                for (fs::directory_iterator d(place, ec); !ec && d != fs::directory_iterator(); d.increment(ec)) {
                    const std::string name = d->path().filename().string();
                    if (name.rfind("checkpoint-", 0) == 0 && fs::is_regular_file(d->path() / "trainer_state.json", ec))
                        found.emplace_back(numberInName(name).value_or(-1), d->path() / "trainer_state.json");
                }
            }
            std::sort(found.begin(), found.end());
            for (const auto &[number, file] : found)
                read(file.string(), state);
        }
        return state;
    }

    static void read(const std::string &file, State &state)
    {
        json j;
        try {
            j = util::parseJsonOrDiscarded<json>(data::readTextFile(file));
        } catch (const data::InputException &e) {
            state.notes.push_back(file + ": not read (" + e.error().reason + "): its evaluation steps are not known");
            return;
        }
        if (!j.is_object() || !j.contains("log_history") || !j["log_history"].is_array()) {
            state.notes.push_back(file + ": not a trainer state (no log_history): its evaluation steps are not known");
            return;
        }
        state.files.push_back(file);
        if (j.contains("global_step") && j["global_step"].is_number_integer())
            state.lastStep = std::max(state.lastStep, j["global_step"].get<int64_t>());
        for (const json &entry : j["log_history"]) {
            if (!entry.is_object() || !entry.contains("step") || !entry["step"].is_number_integer())
                continue;
            for (auto it = entry.begin(); it != entry.end(); ++it)
                if (it.key().rfind("eval_", 0) == 0) {
                    state.steps.insert(entry["step"].get<int64_t>());
                    break;
                }
        }
    }

    std::map<std::string, State> m_states;                     // by the tables' folder
    std::map<std::pair<std::string, int64_t>, int64_t> m_rows; // eval rows by file and step
    bool m_anyParquet = false;
};

// TRL's completions table: step, prompt, completion, one column per reward function
// (null: the function returned None), the log_extra columns, advantage. TRL writes no
// "mode" column; a table a user wrote with one has its "eval" rows skipped too, and its
// "train" rows kept whatever trainer_state.json says of their step.
std::optional<Parsed> readTrl(RowReader &r, int64_t fileStep, const ImportOptions &options, int64_t &evalRows,
                              TrlEvalSteps &evalSteps)
{
    bool eval = false;
    if (r.has("mode")) {
        const std::string mode = r.asText("mode", "train or eval (eval rows skipped unless --include-eval)");
        if (mode == "eval" && !options.includeEval) {
            ++evalRows;
            return std::nullopt;
        }
        eval = mode == "eval";
    }
    Parsed p;
    ExternalSample &s = p.sample;
    p.step = r.has("step") ? trlStep(r) : fileStep;
    // A row that says its mode is trusted; the trainer's state is for TRL's own table.
    if (!r.has("mode") && evalSteps.isEval(r.path(), p.step)) {
        evalSteps.count(r.path(), p.step);
        if (!options.includeEval)
            return std::nullopt;
        eval = true;
    }
    json details = json::object();
    if (eval)
        details["mode"] = "eval";
    s.prompt = trlText(r, "prompt", "prompt", details);
    s.completion = trlText(r, "completion", "completion", details);
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
    r.rest(taken, s, details, "reward function");
    if (r.has("reward")) {
        s.reward = r.number("reward", "reward");
    } else if (!s.components.empty()) {
        // TRL's total: the weighted sum of the functions' rewards, None left out (nansum);
        // None when every function returned None (TRL ≥ 1.6: the row is unscorable).
        double total = 0.0;
        bool any = false;
        for (const auto &[name, value] : s.components) {
            double w = 1.0;
            if (!options.weights.empty()) {
                auto it = options.weights.find(name);
                if (it == options.weights.end())
                    continue;
                w = it->second;
            }
            if (std::isnan(value))
                continue;
            any = true;
            if (w != 0.0)
                total += w * value;
        }
        s.reward = any ? total : kNaN;
    }
    s.detailsJson = dumpDetails(details);
    return p;
}

// ---- Per-token arrays (prime-rl, NeMo-RL, OpenRLHF's agent executor)

// A JSON array of numbers as floats (null: NaN).
std::vector<float> floatsOf(const RowReader &r, const std::string &field, const json &v)
{
    if (!v.is_array())
        r.fail("field \"" + field + "\" must be an array of numbers, not " + v.type_name());
    std::vector<float> out;
    out.reserve(v.size());
    for (size_t i = 0; i < v.size(); ++i) {
        if (v[i].is_null())
            out.push_back(std::numeric_limits<float>::quiet_NaN());
        else if (v[i].is_number())
            out.push_back(static_cast<float>(v[i].get<double>()));
        else
            r.fail("field \"" + field + "[" + std::to_string(i) + "]\" must be a number, not " + v[i].type_name());
    }
    return out;
}

// A JSON array of token ids.
std::vector<int32_t> idsOf(const RowReader &r, const std::string &field, const json &v)
{
    if (!v.is_array())
        r.fail("field \"" + field + "\" must be an array of token ids, not " + v.type_name());
    std::vector<int32_t> out;
    out.reserve(v.size());
    for (size_t i = 0; i < v.size(); ++i) {
        const json &x = v[i];
        if (!x.is_number_integer() || x.get<int64_t>() < 0 || x.get<int64_t>() > std::numeric_limits<int32_t>::max())
            r.fail("field \"" + field + "[" + std::to_string(i) + "]\" must be a token id (an integer from 0 to 2^31 - 1)");
        out.push_back(static_cast<int32_t>(x.get<int64_t>()));
    }
    return out;
}

// A JSON array of flags: booleans, or numbers (0 false).
std::vector<bool> flagsOf(const RowReader &r, const std::string &field, const json &v)
{
    if (!v.is_array())
        r.fail("field \"" + field + "\" must be an array of booleans or 0/1, not " + v.type_name());
    std::vector<bool> out;
    out.reserve(v.size());
    for (size_t i = 0; i < v.size(); ++i) {
        if (v[i].is_boolean())
            out.push_back(v[i].get<bool>());
        else if (v[i].is_number())
            out.push_back(v[i].get<double>() != 0.0);
        else
            r.fail("field \"" + field + "[" + std::to_string(i) + "]\" must be a boolean or 0/1, not " + v[i].type_name());
    }
    return out;
}

// A value or a list holding only it (NeMo-RL writes each of its batch's fields so).
const json &onlyOf(const json &v)
{
    return v.is_array() && v.size() == 1 ? v[0] : v;
}

// A per-token array or a list holding only it.
const json &arrayOf(const json &v)
{
    return v.is_array() && v.size() == 1 && v[0].is_array() ? v[0] : v;
}

// The member `key` of `parent`; nullptr when absent or null.
const json *memberOf(const json &parent, const char *key)
{
    if (!parent.is_object())
        return nullptr;
    auto it = parent.find(key);
    return it == parent.end() || it->is_null() ? nullptr : &*it;
}

// The mean of the nonzero values, 0 when there is none (prime-rl's scalar_advantage).
double meanOfNonzero(const std::vector<float> &values)
{
    double sum = 0.0;
    size_t n = 0;
    for (float v : values)
        if (v != 0.0f && !std::isnan(v)) {
            sum += v;
            ++n;
        }
    return n == 0 ? 0.0 : sum / static_cast<double>(n);
}

// ---- prime-rl

struct PrimeRlCounts {
    int64_t evalEpisodes = 0;
    int64_t failedEpisodes = 0;  // no trace: the episode failed before one was made
    bool stepFromWork = false;   // a file outside a step_N folder: the dispatch step
    bool scalarAdvantage = false; // a trace without info.advantage
    bool unassignedNodes = false; // a sampled node without advantages beside ones with
};

// The stop conditions verifiers counts as truncation (Trace.is_truncated).
const std::set<std::string> kTruncatingStops = {"max_turns", "max_input_tokens", "max_output_tokens",
                                                "max_total_tokens", "context_length"};

// A verifiers message's text: the reasoning, then the content (a string, or its text parts
// with an image part as "[image]"), then each tool call as "[tool call name(arguments)]",
// one per line.
std::string primeMessageText(const RowReader &r, const std::string &field, const json &m)
{
    if (!m.is_object())
        r.fail("field \"" + field + "\" must be a message object, not " + m.type_name());
    std::string out;
    auto add = [&](const std::string &piece) {
        if (piece.empty())
            return;
        if (!out.empty())
            out += '\n';
        out += piece;
    };
    if (const json *reasoning = memberOf(m, "reasoning_content"); reasoning && reasoning->is_string())
        add(reasoning->get<std::string>());
    if (const json *content = memberOf(m, "content")) {
        if (content->is_string()) {
            add(content->get<std::string>());
        } else if (content->is_array()) {
            std::string text;
            for (size_t i = 0; i < content->size(); ++i) {
                const json &part = (*content)[i];
                const json *type = memberOf(part, "type");
                if (type && *type == "text" && memberOf(part, "text") && part["text"].is_string())
                    text += part["text"].get<std::string>();
                else if (type && *type == "image_url")
                    text += "[image]";
                else
                    r.fail("field \"" + field + ".content[" + std::to_string(i)
                           + "]\" must be a text part or an image_url part");
            }
            add(text);
        } else {
            r.fail("field \"" + field + ".content\" must be a string, a list of parts or null, not " + content->type_name());
        }
    }
    if (const json *calls = memberOf(m, "tool_calls"); calls && calls->is_array())
        for (size_t i = 0; i < calls->size(); ++i) {
            const json &c = (*calls)[i];
            const json *name = memberOf(c, "name");
            const json *arguments = memberOf(c, "arguments");
            if (!name || !name->is_string())
                r.fail("field \"" + field + ".tool_calls[" + std::to_string(i) + "].name\" must be a string");
            add("[tool call " + name->get<std::string>() + "("
                + (arguments && arguments->is_string() ? arguments->get<std::string>() : std::string()) + ")]");
        }
    return out;
}

// prime-rl's episodes (verifiers.v1's Episode.to_record, one per line of
// rollouts/step_N/{train,eval}/{all,effective}/traces.jsonl): each trace is a rollout.
// Its tokens are the sampled ones (mask true) of its nodes in node order, which is how
// prime-rl lays out a trace's log-probs and advantages.
std::vector<Parsed> readPrimeRl(RowReader &r, std::optional<int64_t> fileNumber, int64_t fileStep,
                                const ImportOptions &options, PrimeRlCounts &counts)
{
    const json &episode = r.object();
    auto objectAt = [&](const json &parent, const char *key, const std::string &field) -> const json * {
        const json *v = memberOf(parent, key);
        if (v && !v->is_object())
            r.fail("field \"" + field + "\" must be an object, not " + v->type_name());
        return v;
    };
    auto stringAt = [&](const json &parent, const char *key, const std::string &field) -> std::string {
        const json *v = memberOf(parent, key);
        if (v && !v->is_string())
            r.fail("field \"" + field + "\" must be a string, not " + v->type_name());
        return v ? v->get<std::string>() : std::string();
    };

    const json *run = objectAt(episode, "run", "run");
    const json *work = run ? objectAt(*run, "work", "run.work") : nullptr;
    if (work && stringAt(*work, "type", "run.work.type") == "eval") {
        r.note("run.work.type", "train or eval (eval episodes skipped unless --include-eval)");
        if (!options.includeEval) {
            ++counts.evalEpisodes;
            return {};
        }
    }
    std::optional<int64_t> dispatchStep;
    if (const json *v = work ? memberOf(*work, "step") : nullptr) {
        if (!v->is_number_integer())
            r.fail(std::string("field \"run.work.step\" must be an integer, not ") + v->type_name());
        dispatchStep = v->get<int64_t>();
    }
    int64_t step = fileStep;
    if (!fileNumber && dispatchStep) {
        step = *dispatchStep;
        counts.stepFromWork = true;
        r.note("run.work.step", "step (the file is in no step_N folder)");
    } else if (dispatchStep) {
        r.note("run.work.step", "details (dispatch_step: when it was sampled; the step is the step_N folder's)");
    }

    const json &traces = r.at("traces");
    if (!traces.is_array())
        r.fail(std::string("field \"traces\" must be an array, not ") + traces.type_name());
    if (traces.empty()) {
        ++counts.failedEpisodes;
        return {};
    }

    std::string group;
    if (const json *g = objectAt(episode, "group", "group")) {
        group = stringAt(*g, "id", "group.id");
        r.note("group.id", "group");
    }
    std::string gold, meta = "{}", taskKey;
    if (const json *task = objectAt(episode, "task", "task")) {
        taskKey = stringAt(*task, "key", "task.key");
        if (const json *data = objectAt(*task, "data", "task.data")) {
            meta = dumpDetails(*data);
            r.note("task.data", "the prompt's record (meta)");
            if (const json *answer = memberOf(*data, "answer"); answer && (answer->is_string() || answer->is_number())) {
                gold = answer->is_string() ? answer->get<std::string>() : answer->dump();
                r.note("task.data.answer", "gold answer");
            }
        }
    }
    std::string envId;
    if (const json *env = objectAt(episode, "env", "env"))
        envId = stringAt(*env, "id", "env.id");
    std::set<std::string> agents;
    for (const json &t : traces)
        if (const json *agent = memberOf(t, "agent"); agent && memberOf(*agent, "name") && (*agent)["name"].is_string())
            agents.insert((*agent)["name"].get<std::string>());

    std::vector<Parsed> out;
    for (size_t t = 0; t < traces.size(); ++t) {
        const std::string tf = "traces[" + std::to_string(t) + "]";
        const json &trace = traces[t];
        if (!trace.is_object())
            r.fail("field \"" + tf + "\" must be an object, not " + trace.type_name());
        Parsed p;
        p.step = step;
        ExternalSample &s = p.sample;
        s.gold = gold;
        s.metaJson = meta;
        json details = json::object();
        if (const json *id = memberOf(episode, "id"))
            details["episode"] = *id;
        if (const json *id = memberOf(trace, "id"))
            details["trace"] = *id;
        if (!envId.empty())
            details["env"] = envId;
        if (!taskKey.empty())
            details["task"] = taskKey;
        std::string agentName = "agent";
        if (const json *agent = objectAt(trace, "agent", tf + ".agent")) {
            agentName = stringAt(*agent, "name", tf + ".agent.name");
            if (agentName.empty())
                agentName = "agent";
            if (const json *trainable = memberOf(*agent, "trainable"); trainable && *trainable == false)
                details["trainable"] = false;
        }
        if (agents.size() > 1)
            details["agent"] = agentName;
        if (!group.empty())
            s.group = agents.size() > 1 ? group + "/" + agentName : group;

        // The message graph: its last branch (the path from a root to the last leaf, as
        // verifiers' Trace.messages) gives the prompt and the completion.
        static const json kNoNodes = json::array();
        const json *nodesField = memberOf(trace, "nodes");
        const json &nodes = nodesField ? *nodesField : kNoNodes;
        if (!nodes.is_array())
            r.fail("field \"" + tf + ".nodes\" must be an array, not " + nodes.type_name());
        std::vector<int64_t> parent(nodes.size(), -1);
        std::vector<bool> hasChild(nodes.size(), false);
        for (size_t i = 0; i < nodes.size(); ++i) {
            const std::string nf = tf + ".nodes[" + std::to_string(i) + "]";
            if (!nodes[i].is_object())
                r.fail("field \"" + nf + "\" must be an object, not " + nodes[i].type_name());
            if (const json *pi = memberOf(nodes[i], "parent")) {
                if (!pi->is_number_integer() || pi->get<int64_t>() < 0 || pi->get<int64_t>() >= static_cast<int64_t>(i))
                    r.fail("field \"" + nf + ".parent\" must be the index of an earlier node");
                parent[i] = pi->get<int64_t>();
                hasChild[static_cast<size_t>(parent[i])] = true;
            }
            if (!memberOf(nodes[i], "message"))
                r.fail("missing field \"" + nf + ".message\"");
        }
        std::vector<size_t> branch;
        for (size_t i = nodes.size(); i-- > 0;)
            if (!hasChild[i]) {
                for (int64_t k = static_cast<int64_t>(i); k >= 0; k = parent[static_cast<size_t>(k)])
                    branch.push_back(static_cast<size_t>(k));
                break;
            }
        std::reverse(branch.begin(), branch.end());
        auto sampled = [&](size_t i) {
            const json *v = memberOf(nodes[i], "sampled");
            return v && v->is_boolean() && v->get<bool>();
        };
        auto lineOf = [&](size_t i) {
            const std::string nf = tf + ".nodes[" + std::to_string(i) + "].message";
            const json &m = nodes[i]["message"];
            const std::string role = m.is_object() ? stringAt(m, "role", nf + ".role") : std::string();
            const std::string text = primeMessageText(r, nf, m);
            return role.empty() ? text : role + ": " + text;
        };
        size_t firstSampled = branch.size();
        for (size_t b = 0; b < branch.size(); ++b)
            if (sampled(branch[b])) {
                firstSampled = b;
                break;
            }
        for (size_t b = 0; b < firstSampled; ++b)
            s.prompt += (b == 0 ? "" : "\n") + lineOf(branch[b]);
        if (branch.size() - firstSampled == 1) {
            const size_t i = branch[firstSampled];
            s.completion = primeMessageText(r, tf + ".nodes[" + std::to_string(i) + "].message", nodes[i]["message"]);
        } else {
            for (size_t b = firstSampled; b < branch.size(); ++b)
                s.completion += (b == firstSampled ? "" : "\n") + lineOf(branch[b]);
        }
        if (!nodes.empty())
            r.note("traces[].nodes[].message",
                   "prompt and completion (the last branch's messages; the first sampled one starts the completion)");

        // The sampled tokens and their per-token values, node by node.
        bool anyLogprobs = false, anyAdvantages = false, anyReference = false, unassigned = false;
        for (size_t i = 0; i < nodes.size(); ++i) {
            const std::string nf = tf + ".nodes[" + std::to_string(i) + "]";
            const json *maskField = memberOf(nodes[i], "mask");
            if (!maskField)
                continue;
            const std::vector<bool> mask = flagsOf(r, nf + ".mask", *maskField);
            const size_t n = static_cast<size_t>(std::count(mask.begin(), mask.end(), true));
            if (n == 0)
                continue;
            const json *idsField = memberOf(nodes[i], "token_ids");
            const std::vector<int32_t> ids = idsField ? idsOf(r, nf + ".token_ids", *idsField) : std::vector<int32_t>();
            if (ids.size() != mask.size())
                r.fail("field \"" + nf + ".mask\" has " + std::to_string(mask.size()) + " values for "
                       + std::to_string(ids.size()) + " token_ids");
            for (size_t k = 0; k < ids.size(); ++k)
                if (mask[k])
                    s.tokenIds.push_back(ids[k]);
            // Each per-token field holds one value per sampled token, or is absent.
            auto take = [&](const char *key, std::vector<float> &into, float missing, bool &any) {
                const json *v = memberOf(nodes[i], key);
                std::vector<float> values = v ? floatsOf(r, nf + "." + key, *v) : std::vector<float>();
                if (!values.empty() && values.size() != n)
                    r.fail("field \"" + nf + "." + key + "\" has " + std::to_string(values.size()) + " values for "
                           + std::to_string(n) + " sampled tokens (mask true)");
                if (values.empty()) {
                    into.insert(into.end(), n, missing);
                    return false;
                }
                any = true;
                into.insert(into.end(), values.begin(), values.end());
                return true;
            };
            take("logprobs", s.logprobsOld, std::numeric_limits<float>::quiet_NaN(), anyLogprobs);
            // A node without advantages reads as 0 (prime-rl's Branch.spread).
            if (!take("advantages", s.advantages, 0.0f, anyAdvantages))
                unassigned = true;
            take("reference_logprobs", s.logprobsRef, std::numeric_limits<float>::quiet_NaN(), anyReference);
        }
        if (!s.tokenIds.empty())
            r.note("traces[].nodes[].token_ids", "token ids (the sampled tokens: mask true)");
        if (anyLogprobs)
            r.note("traces[].nodes[].logprobs", "log-probs old (the inference engine's, at sampling)");
        else
            s.logprobsOld.clear();
        if (anyAdvantages) {
            r.note("traces[].nodes[].advantages", "per-token advantages");
            counts.unassignedNodes = counts.unassignedNodes || unassigned;
        } else {
            s.advantages.clear();
        }
        if (anyReference)
            r.note("traces[].nodes[].reference_logprobs", "log-probs ref (the reference model's)");
        else
            s.logprobsRef.clear();
        s.completionTokens = static_cast<int>(s.tokenIds.size());

        // Rewards: each named reward's score is a component; the total is Σ score × weight
        // (verifiers' Trace.reward); a reward that did not run (null) is None.
        s.reward = kNaN;
        if (const json *rewards = objectAt(trace, "rewards", tf + ".rewards")) {
            json weights = json::object();
            for (auto it = rewards->begin(); it != rewards->end(); ++it) {
                const std::string rf = tf + ".rewards." + it.key();
                double score = kNaN, weight = 1.0;
                if (!it->is_null()) {
                    if (!it->is_object())
                        r.fail("field \"" + rf + "\" must be an object with a score, or null, not " + it->type_name());
                    const json *sc = memberOf(*it, "score");
                    if (!sc || !sc->is_number())
                        r.fail("field \"" + rf + ".score\" must be a number");
                    score = sc->get<double>();
                    if (const json *w = memberOf(*it, "weight")) {
                        if (!w->is_number())
                            r.fail("field \"" + rf + ".weight\" must be a number");
                        weight = w->get<double>();
                    }
                    s.reward = (std::isnan(s.reward) ? 0.0 : s.reward) + score * weight;
                    if (weight != 1.0)
                        weights[it.key()] = weight;
                }
                s.components.emplace_back(it.key(), score);
            }
            if (!weights.empty())
                details["reward_weights"] = weights;
            r.note("traces[].rewards", "reward components (each score) and reward (the sum of score × weight)");
        }
        if (const json *metrics = objectAt(trace, "metrics", tf + ".metrics"); metrics && !metrics->empty()) {
            details["metrics"] = *metrics;
            r.note("traces[].metrics", "details (metrics)");
        }
        if (const json *info = objectAt(trace, "info", tf + ".info")) {
            json rest = json::object();
            for (auto it = info->begin(); it != info->end(); ++it) {
                if (it.key() == "advantage") {
                    if (!it->is_number())
                        r.fail("field \"" + tf + ".info.advantage\" must be a number, not " + it->type_name());
                    s.advantage = it->get<double>();
                    r.note("traces[].info.advantage", "advantage");
                } else {
                    rest[it.key()] = *it;
                }
            }
            if (!rest.empty()) {
                details["info"] = rest;
                r.note("traces[].info", "details (info)");
            }
        }
        if (!s.advantage && anyAdvantages) {
            s.advantage = meanOfNonzero(s.advantages);
            counts.scalarAdvantage = true;
        }

        const std::string stop = stringAt(trace, "stop_condition", tf + ".stop_condition");
        if (!stop.empty()) {
            details["stop_condition"] = stop;
            r.note("traces[].stop_condition", "truncated (a length limit) and details");
        }
        s.truncated = kTruncatingStops.count(stop) > 0;
        if (const json *calls = memberOf(trace, "calls"); calls && calls->is_array()) {
            // The last call that did not fail decides, as verifiers' Trace.is_truncated.
            for (auto it = calls->rbegin(); it != calls->rend(); ++it)
                if (it->is_object() && !memberOf(*it, "error")) {
                    if (const json *finish = memberOf(*it, "finish_reason"); finish && *finish == "length") {
                        s.truncated = true;
                        r.note("traces[].calls[].finish_reason", "truncated (\"length\")");
                    }
                    break;
                }
        }
        if (const json *ok = memberOf(trace, "ok"); ok && *ok == false)
            details["ok"] = false;
        if (const json *errors = memberOf(trace, "errors"); errors && errors->is_array() && !errors->empty()) {
            json brief = json::array();
            for (const json &e : *errors)
                if (e.is_object())
                    brief.push_back({{"type", e.value("type", json())}, {"message", e.value("message", json())}});
            details["errors"] = brief;
            r.note("traces[].errors", "details (each error's type and message)");
        }
        if (dispatchStep && fileNumber)
            details["dispatch_step"] = *dispatchStep;
        s.detailsJson = dumpDetails(details);
        // What the import leaves out, for the report.
        static const std::set<std::string> kTraceRead = {"id", "agent", "nodes", "calls", "rewards", "metrics", "info",
                                                         "stop_condition", "ok", "errors", "task"};
        for (auto it = trace.begin(); it != trace.end(); ++it)
            if (!kTraceRead.count(it.key()))
                r.note("traces[]." + it.key(), "not imported");
        static const std::set<std::string> kNodeRead = {"parent", "message", "sampled", "token_ids", "mask", "logprobs",
                                                        "advantages", "reference_logprobs"};
        std::set<std::string> nodeKeys;
        for (const json &node : nodes)
            for (auto it = node.begin(); it != node.end(); ++it)
                if (!kNodeRead.count(it.key()))
                    nodeKeys.insert(it.key());
        for (const std::string &key : nodeKeys)
            r.note("traces[].nodes[]." + key, "not imported");
        out.push_back(std::move(p));
    }
    return out;
}

// ---- NeMo-RL

struct NemoRlNotes {
    bool prevZero = false; // prev_logprobs all 0 at the generated tokens: not stored
    bool noIds = false;    // per-token values without token_ids: not stored
    bool multiTurn = false;
};

// NeMo-RL's train_data_step{N}.jsonl (grpo.py's log_data through
// Logger.log_batched_dict_as_jsonl): one line per sample, each field the sample's slice of
// the batch (a list of one), the per-token fields padded to the batch's longest sequence.
// "content" holds the texts of the sample's messages (prompt, then the model's and the
// environment's turns); token_loss_mask marks the generated tokens.
std::optional<Parsed> readNemoRl(RowReader &r, int64_t fileStep, NemoRlNotes &notes)
{
    Parsed p;
    p.step = fileStep;
    ExternalSample &s = p.sample;
    const json &o = r.object();

    // The messages' texts.
    const json &contentField = r.at("content");
    const json &content = contentField.is_array() && contentField.size() == 1 && contentField[0].is_array()
                              ? contentField[0]
                              : contentField;
    std::vector<std::string> messages;
    if (content.is_string()) {
        messages.push_back(content.get<std::string>());
    } else if (content.is_array()) {
        for (size_t i = 0; i < content.size(); ++i) {
            // val_data_step{N}.jsonl holds the message dicts themselves: their "content".
            const json *text = content[i].is_object() ? memberOf(content[i], "content") : &content[i];
            if (!text || !text->is_string())
                r.fail("field \"content[" + std::to_string(i) + "]\" must be a message's text (a string), not "
                       + (text ? text->type_name() : "a message without a text \"content\""));
            messages.push_back(text->get<std::string>());
        }
    } else {
        r.fail(std::string("field \"content\" must be a list of message texts, not ") + content.type_name());
    }

    // The generated tokens: token_loss_mask 1 before input_lengths (the rest is padding).
    std::vector<bool> mask;
    std::vector<int32_t> ids;
    if (const json *v = memberOf(o, "token_loss_mask"))
        mask = flagsOf(r, "token_loss_mask", arrayOf(*v));
    if (const json *v = memberOf(o, "token_ids")) {
        ids = idsOf(r, "token_ids", arrayOf(*v));
        if (memberOf(o, "token_loss_mask") && ids.size() != mask.size())
            r.fail("field \"token_loss_mask\" has " + std::to_string(mask.size()) + " values for " + std::to_string(ids.size())
                   + " token_ids");
    }
    size_t length = mask.size();
    if (const json *v = memberOf(o, "input_lengths")) {
        const json &n = onlyOf(*v);
        if (!n.is_number_integer() || n.get<int64_t>() < 0)
            r.fail(std::string("field \"input_lengths\" must be a whole number, not ") + n.type_name());
        if (memberOf(o, "token_loss_mask") && static_cast<size_t>(n.get<int64_t>()) > mask.size())
            r.fail("field \"input_lengths\" is " + std::to_string(n.get<int64_t>()) + ", more than the "
                   + std::to_string(mask.size()) + " tokens of \"token_loss_mask\"");
        length = std::min(length, static_cast<size_t>(n.get<int64_t>()));
        r.note("input_lengths", "the tokens before the padding");
    }
    std::vector<size_t> generated;
    size_t turns = 0;
    for (size_t i = 0; i < length; ++i)
        if (mask[i]) {
            if (generated.empty() || generated.back() != i - 1)
                ++turns;
            generated.push_back(i);
        }
    if (memberOf(o, "token_loss_mask"))
        r.note("token_loss_mask", "which tokens the model generated");

    // Prompt and completion: the messages before the first generated one, and the rest.
    // The texts carry no roles, so the split counts back from the end: the model's turns
    // (runs of generated tokens) alternate with the environment's, and tokens after the
    // last generated one are one more message of the environment's.
    size_t firstGenerated = messages.empty() ? 0 : messages.size() - 1;
    if (turns > 0) {
        const bool trailing = generated.back() + 1 < length;
        const size_t fromEnd = 2 * turns - 1 + (trailing ? 1 : 0);
        firstGenerated = messages.size() > fromEnd ? messages.size() - fromEnd : std::min<size_t>(1, messages.size());
        notes.multiTurn = notes.multiTurn || turns > 1 || trailing;
    }
    for (size_t i = 0; i < messages.size(); ++i)
        (i < firstGenerated ? s.prompt : s.completion) += messages[i];
    r.note("content", "prompt and completion (the messages' texts, joined as the model saw them)");

    // Per-token values, at the generated tokens.
    auto perToken = [&](const char *field) -> std::optional<std::vector<float>> {
        const json *v = memberOf(o, field);
        if (!v)
            return std::nullopt;
        std::vector<float> all = floatsOf(r, field, arrayOf(*v));
        if (memberOf(o, "token_loss_mask") && all.size() != mask.size())
            r.fail("field \"" + std::string(field) + "\" has " + std::to_string(all.size()) + " values for "
                   + std::to_string(mask.size()) + " tokens");
        if (!memberOf(o, "token_loss_mask"))
            r.fail(std::string("field \"") + field + "\" has per-token values but the row has no \"token_loss_mask\"");
        std::vector<float> at;
        at.reserve(generated.size());
        for (size_t i : generated)
            at.push_back(all[i]);
        return at;
    };
    std::optional<std::vector<float>> advantages, generation, previous;
    if (const json *v = memberOf(o, "advantages"); v && onlyOf(*v).is_number()) {
        s.advantage = onlyOf(*v).get<double>();
        r.note("advantages", "advantage");
    } else if ((advantages = perToken("advantages"))) {
        double sum = 0.0;
        for (float a : *advantages)
            sum += a;
        s.advantage = advantages->empty() ? 0.0 : sum / static_cast<double>(advantages->size());
        r.note("advantages", "per-token advantages (their mean: the advantage)");
    }
    if ((generation = perToken("generation_logprobs")))
        r.note("generation_logprobs", "log-probs old (the inference engine's, at sampling)");
    if ((previous = perToken("prev_logprobs"))) {
        if (std::all_of(previous->begin(), previous->end(), [](float v) { return v == 0.0f; }) && !previous->empty()) {
            notes.prevZero = true;
            previous.reset();
            r.note("prev_logprobs", "not imported (all 0: the trainer's forward pass was skipped)");
        } else {
            r.note("prev_logprobs", "log-probs new (the trainer's forward pass before the update)");
        }
    }
    if (memberOf(o, "token_ids")) {
        for (size_t i : generated)
            s.tokenIds.push_back(ids[i]);
        if (advantages)
            s.advantages = std::move(*advantages);
        if (generation)
            s.logprobsOld = std::move(*generation);
        if (previous)
            s.logprobsNew = std::move(*previous);
        r.note("token_ids", "token ids (the generated tokens: token_loss_mask 1)");
    } else if (advantages || generation || previous) {
        notes.noIds = true;
    }
    s.completionTokens = static_cast<int>(generated.size());

    if (const json *v = memberOf(o, "rewards")) {
        s.reward = r.numberOf("rewards", onlyOf(*v));
        r.note("rewards", "reward");
    }
    std::set<std::string> taken = {"content", "rewards", "input_lengths", "token_ids", "token_loss_mask", "advantages",
                                   "generation_logprobs", "prev_logprobs", "idx", "filtered_rewards",
                                   "sample_loss_mask", "agent_ref"};
    json details = json::object();
    for (const char *field : {"filtered_rewards", "sample_loss_mask", "agent_ref"})
        if (const json *v = memberOf(o, field)) {
            details[field] = onlyOf(*v);
            r.note(field, "details");
        }
    if (memberOf(o, "idx"))
        r.note("idx", "not imported (the row's number in the file)");
    r.rest(taken, s, details, "reward component");
    s.detailsJson = dumpDetails(details);
    return p;
}

// ---- OpenRLHF

struct OpenRlhfState {
    const tokenizer::Tokenizer *tokenizer = nullptr;
    std::set<std::string> tableRows; // the wandb tables' rows read so far
    int64_t repeatedTableRows = 0;
    bool tableRowsRead = false;
    bool completionUndecoded = false; // agent rows read without a tokenizer
};

// The agent executor's result (openrlhf/utils/agent.py, execute()): the whole sequence's
// token ids, the model's spans of them, the engine's log-probs over the sequence (0 for
// the tokens it did not generate), the reward and the label; no completion text.
std::optional<Parsed> readOpenRlhfAgent(RowReader &r, int64_t fileStep, OpenRlhfState &state)
{
    Parsed p;
    ExternalSample &s = p.sample;
    const json &o = r.object();
    s.prompt = r.text("prompt", "prompt");
    p.step = r.has("step") ? r.integer("step", "step") : r.has("global_step") ? r.integer("global_step", "step") : fileStep;
    const std::vector<int32_t> sequence = idsOf(r, "observation_tokens", r.at("observation_tokens"));
    r.note("observation_tokens", "token ids (the model's spans of them, by action_ranges)");
    const json &ranges = r.at("action_ranges");
    if (!ranges.is_array())
        r.fail(std::string("field \"action_ranges\" must be an array of [start, end] pairs, not ") + ranges.type_name());
    std::vector<float> logprobs;
    if (const json *v = memberOf(o, "rollout_log_probs")) {
        logprobs = floatsOf(r, "rollout_log_probs", *v);
        if (logprobs.size() != sequence.size())
            r.fail("field \"rollout_log_probs\" has " + std::to_string(logprobs.size()) + " values for "
                   + std::to_string(sequence.size()) + " observation_tokens");
        r.note("rollout_log_probs", "log-probs old (the inference engine's, at sampling)");
    }
    size_t previousEnd = 0, firstStart = sequence.size();
    for (size_t k = 0; k < ranges.size(); ++k) {
        const json &range = ranges[k];
        const std::string field = "action_ranges[" + std::to_string(k) + "]";
        if (!range.is_array() || range.size() != 2 || !range[0].is_number_integer() || !range[1].is_number_integer())
            r.fail("field \"" + field + "\" must be a [start, end] pair of integers");
        const int64_t start = range[0].get<int64_t>(), end = range[1].get<int64_t>();
        if (start < static_cast<int64_t>(previousEnd) || end < start || end > static_cast<int64_t>(sequence.size()))
            r.fail("field \"" + field + "\" must lie within the " + std::to_string(sequence.size())
                   + " observation_tokens, after the range before it");
        for (int64_t i = start; i < end; ++i) {
            s.tokenIds.push_back(sequence[static_cast<size_t>(i)]);
            if (!logprobs.empty())
                s.logprobsOld.push_back(logprobs[static_cast<size_t>(i)]);
        }
        firstStart = std::min(firstStart, static_cast<size_t>(start));
        previousEnd = static_cast<size_t>(end);
    }
    r.note("action_ranges", "which tokens the model generated");
    s.completionTokens = static_cast<int>(s.tokenIds.size());
    // The completion: everything after the prompt (the model's turns and the environment's
    // answers), decoded with the tokenizer when there is one.
    if (state.tokenizer && firstStart < sequence.size()) {
        try {
            s.completion = state.tokenizer->decode(
                std::vector<int32_t>(sequence.begin() + static_cast<std::ptrdiff_t>(firstStart), sequence.end()),
                /*skipSpecial=*/true);
        } catch (const std::exception &e) {
            r.fail(std::string("field \"observation_tokens\": the tokenizer cannot decode them: ") + e.what());
        }
    } else if (!state.tokenizer && !s.tokenIds.empty()) {
        state.completionUndecoded = true;
    }
    auto scalar = [&](const char *field, const std::string &target) {
        const double v = r.numberOf(field, onlyOf(r.at(field)));
        r.note(field, target);
        return v;
    };
    s.reward = r.has("reward") ? scalar("reward", "reward") : kNaN;
    std::set<std::string> taken = {"prompt", "label", "observation_tokens", "action_ranges", "rollout_log_probs",
                                   "reward", "scores", "truncated", "extra_logs", "images", "mm_train_inputs",
                                   "step", "global_step"};
    if (r.has("scores") && !r.at("scores").is_null())
        s.components.emplace_back("scores", scalar("scores", "reward component"));
    if (memberOf(o, "label"))
        s.gold = r.asText("label", "gold answer");
    if (const json *v = memberOf(o, "truncated")) {
        if (!v->is_boolean())
            r.fail(std::string("field \"truncated\" must be a boolean, not ") + v->type_name());
        s.truncated = v->get<bool>();
        r.note("truncated", "truncated");
    }
    json details = json::object();
    if (const json *extra = memberOf(o, "extra_logs")) {
        if (!extra->is_object())
            r.fail(std::string("field \"extra_logs\" must be an object, not ") + extra->type_name());
        for (auto it = extra->begin(); it != extra->end(); ++it) {
            const json &v = onlyOf(*it);
            if (v.is_number() || v.is_boolean() || v.is_null())
                s.components.emplace_back(it.key(), r.numberOf("extra_logs." + it.key(), v));
            else
                details[it.key()] = v;
        }
        r.note("extra_logs", "reward components (numbers), details (the rest)");
    }
    for (const char *media : {"images", "mm_train_inputs"})
        if (o.contains(media))
            r.note(media, "not imported (images)");
    r.rest(taken, s, details, "reward component");
    s.detailsJson = dumpDetails(details);
    return p;
}

// OpenRLHF: batch_inference's {input, output, reward} (before 0.11), generation's {input,
// output}, with the step, label and group where a user's dump adds them; the wandb table
// its WandbLogger logs as train/generated_samples (global_step, text, reward: one sample
// per step, each step's table repeating the rows before it); and the agent executor's
// results dumped one per line.
std::optional<Parsed> readOpenRlhf(RowReader &r, int64_t fileStep, OpenRlhfState &state)
{
    if (r.has("observation_tokens"))
        return readOpenRlhfAgent(r, fileStep, state);
    Parsed p;
    ExternalSample &s = p.sample;
    if (r.has("text") && !r.has("input")) {
        const json &o = r.object();
        const std::string key = json::array({o.contains("global_step") ? o["global_step"] : json(), o["text"],
                                             o.contains("reward") ? o["reward"] : json()})
                                    .dump(-1, ' ', false, json::error_handler_t::replace);
        s.completion = r.text("text", "completion (prompt and completion decoded together: the table keeps no prompt)");
        s.reward = r.has("reward") ? r.number("reward", "reward") : kNaN;
        p.step = r.has("global_step") ? r.integer("global_step", "step") : fileStep;
        state.tableRowsRead = true;
        if (!state.tableRows.insert(key).second) {
            ++state.repeatedTableRows;
            return std::nullopt;
        }
        json details = json::object();
        r.rest({"global_step", "text", "reward"}, s, details, "reward component");
        s.detailsJson = dumpDetails(details);
        return p;
    }
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

bool mappingHas(const std::vector<FieldMapping> &mapped, const std::string &field)
{
    return std::any_of(mapped.begin(), mapped.end(), [&](const FieldMapping &m) { return m.field == field; });
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
    case DumpFormat::PrimeRl:
        return "prime-rl";
    case DumpFormat::NemoRl:
        return "nemo-rl";
    case DumpFormat::Auto:
        break;
    }
    return "auto";
}

std::optional<DumpFormat> parseDumpFormat(std::string_view name)
{
    for (DumpFormat f : {DumpFormat::Auto, DumpFormat::Verl, DumpFormat::Trl, DumpFormat::OpenRlhf, DumpFormat::PrimeRl,
                         DumpFormat::NemoRl})
        if (name == dumpFormatName(f))
            return f;
    return std::nullopt;
}

namespace {

// A dump read and checked, not yet written.
struct DumpRead {
    ImportReport report; // everything but the run's id and name
    std::map<int64_t, std::vector<ExternalSample>> steps;
    std::string modelDir; // the tokenizer's folder, absolute ("" none)
    // A preview's (limits given):
    std::vector<std::string> allFiles;
    std::vector<std::string> notRead;
    std::vector<ImportPreviewRow> rows;
    bool partial = false;
};

// Reads and checks every file of the dump (importRollouts), or with `limits` its first
// rows (previewImport): the one reading code of both.
DumpRead readDump(const std::vector<std::string> &paths, const ImportOptions &options, const ReadLimits *limits)
{
    if (paths.empty())
        throw data::InputException({"", 0, "no file or folder to import"});
    DumpRead read;
    ImportReport &report = read.report;
    std::vector<DumpFile> files = collectFiles(paths, report.skipped);
    for (const DumpFile &file : files)
        read.allFiles.push_back(file.path);
    const bool reportProgress = options.progress && !limits;
    size_t rowsRead = 0;

    // Read and check everything before the store is touched.
    DumpFormat format = options.format;
    Mapping mapping;
    std::map<int64_t, std::vector<ExternalSample>> &steps = read.steps;
    std::string previousSignature, previousPath;
    int64_t evalRows = 0;
    ParquetReader parquet(options.python); // started at the first parquet file
    TrlEvalSteps trlEvalSteps;
    bool stepFromName = false;
    // The tokenizer: checked before anything is read; it decodes OpenRLHF's agent rows.
    std::unique_ptr<tokenizer::Tokenizer> tok;
    std::string &modelDir = read.modelDir;
    if (!options.tokenizerDir.empty()) {
        std::error_code ec;
        modelDir = fs::absolute(options.tokenizerDir, ec).lexically_normal().string();
        if (ec || !fs::is_directory(modelDir, ec))
            throw data::InputException({options.tokenizerDir, 0, "--tokenizer: no such folder"});
        try {
            tok = tokenizer::loadTokenizer(modelDir);
        } catch (const std::exception &e) {
            throw data::InputException({options.tokenizerDir, 0, std::string("--tokenizer: cannot read a tokenizer: ") + e.what()});
        }
    }
    PrimeRlCounts primeRl;
    NemoRlNotes nemoRl;
    std::set<std::string> wideRowsSeen; // verl's val/generations samples read so far
    int64_t wideRowsRepeated = 0;
    bool wideTables = false;
    OpenRlhfState openRlhf;
    openRlhf.tokenizer = tok.get();
    for (size_t f = 0; f < files.size(); ++f) {
        DumpFile &file = files[f];
        if (reportProgress && !options.progress(ImportPhase::Reading, static_cast<int64_t>(f), static_cast<int64_t>(files.size())))
            throw ImportCancelled("cancelled while reading " + file.path + ": nothing was imported");
        if (limits) {
            if (rowsRead >= limits->maxRows) {
                read.partial = true;
                break;
            }
            std::error_code ec;
            const std::string ext = extensionOf(file.path);
            if (ext == ".parquet") {
                read.notRead.push_back(file.path + ": a parquet table (reading it starts Python with pyarrow): the "
                                                   "import maps it");
                continue;
            }
            if (ext == ".json" && fs::file_size(file.path, ec) > kPreviewJsonBytes && !ec) {
                read.notRead.push_back(file.path + ": one JSON value of more than 8 MiB: the import maps it");
                continue;
            }
        }
        bool cut = false;
        readFile(file, parquet, limits, cut);
        read.partial = read.partial || cut;
        wideTables = wideTables || file.wideTable;
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
        if (format == DumpFormat::PrimeRl) {
            // rollouts/step_N/{train,eval}/{all,effective}/traces.jsonl: "all" holds every
            // finished episode as it came (before advantages), "effective" the trained-on ones.
            const fs::path here(file.path);
            const fs::path subset = here.parent_path().filename(), kind = here.parent_path().parent_path().filename();
            if (kind == "eval" && !options.includeEval && std::find(paths.begin(), paths.end(), file.path) == paths.end()) {
                report.skipped.push_back(file.path + ": prime-rl's eval episodes (--include-eval imports them)");
                continue;
            }
            std::error_code ec;
            const bool named = std::find(paths.begin(), paths.end(), file.path) != paths.end();
            if (subset == "all" && !named
                && fs::exists(here.parent_path().parent_path() / "effective" / here.filename(), ec)) {
                report.skipped.push_back(file.path + ": every finished episode, before advantages; the "
                                                     "effective/ file beside it holds the ones trained on");
                continue;
            }
        }
        if (format == DumpFormat::NemoRl && !options.includeEval
            && fs::path(file.path).filename().string().rfind("val_data_step", 0) == 0
            && std::find(paths.begin(), paths.end(), file.path) == paths.end()) {
            report.skipped.push_back(file.path + ": NeMo-RL's validation samples (--include-eval imports them)");
            continue;
        }
        const int64_t fileStep = file.number ? *file.number : static_cast<int64_t>(f) + 1;
        std::vector<Parsed> parsed;
        std::vector<const Row *> origins; // the row each of `parsed` came from
        for (const Row &row : file.rows) {
            // Each wandb table of verl's validations holds every row logged before it.
            if (file.wideTable && !wideRowsSeen.insert(row.obj.dump()).second) {
                ++wideRowsRepeated;
                continue;
            }
            RowReader reader(file, row, mapping);
            std::optional<Parsed> p;
            if (format == DumpFormat::PrimeRl) {
                for (Parsed &q : readPrimeRl(reader, file.number, fileStep, options, primeRl)) {
                    parsed.push_back(std::move(q));
                    origins.push_back(&row);
                }
                continue;
            }
            switch (format) {
            case DumpFormat::Verl:
                p = readVerl(reader, fileStep);
                break;
            case DumpFormat::Trl:
                p = readTrl(reader, fileStep, options, evalRows, trlEvalSteps);
                break;
            case DumpFormat::NemoRl:
                p = readNemoRl(reader, fileStep, nemoRl);
                break;
            case DumpFormat::OpenRlhf:
            case DumpFormat::PrimeRl:
            case DumpFormat::Auto:
                p = readOpenRlhf(reader, fileStep, openRlhf);
                break;
            }
            if (!p)
                continue;
            if (!row.obj.contains("step") && !row.obj.contains("global_step"))
                stepFromName = true;
            parsed.push_back(std::move(*p));
            origins.push_back(&row);
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
        rowsRead += parsed.size();
        for (size_t i = 0; i < parsed.size(); ++i) {
            if (limits && read.rows.size() < limits->maxRows)
                read.rows.push_back({file.path, origins[i]->line, origins[i]->where, parsed[i].step, parsed[i].sample});
            steps[parsed[i].step].push_back(std::move(parsed[i].sample));
        }
    }
    if (reportProgress && !options.progress(ImportPhase::Reading, static_cast<int64_t>(files.size()),
                                            static_cast<int64_t>(files.size())))
        throw ImportCancelled("cancelled after reading the dump: nothing was imported");
    if (limits && steps.empty() && !read.notRead.empty()) {
        // Nothing the preview could read: the import maps what it left.
        read.partial = true;
        report.format = format;
        return read;
    }
    if (format == DumpFormat::Auto || steps.empty())
        throw data::InputException({paths.front(), 0, "no rollouts to import"});
    if (evalRows > 0)
        report.skipped.push_back(std::to_string(evalRows) + " eval rows (\"mode\": \"eval\"; --include-eval imports them)");
    if (primeRl.evalEpisodes > 0)
        report.skipped.push_back(std::to_string(primeRl.evalEpisodes)
                                 + " eval episodes (run.work.type \"eval\"; --include-eval imports them)");
    if (primeRl.failedEpisodes > 0)
        report.skipped.push_back(std::to_string(primeRl.failedEpisodes)
                                 + " episodes without a trace (they failed before one was made; \"errors\" says why)");
    if (openRlhf.repeatedTableRows > 0)
        report.skipped.push_back(std::to_string(openRlhf.repeatedTableRows)
                                 + " rows an earlier wandb table already held (each step's table repeats the rows before)");
    if (wideRowsRepeated > 0)
        report.skipped.push_back(std::to_string(wideRowsRepeated)
                                 + " samples an earlier wandb table already held (each val/generations table repeats "
                                   "the validations before)");
    if (wideTables)
        report.computed.push_back("samples: verl's val/generations table, one row per validation with input_i, "
                                  "output_i, score_i side by side, read as one rollout per sample (\"sample\": i)");
    if (format == DumpFormat::Trl)
        trlEvalSteps.report(report, options.includeEval);

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
    bool anyGroup = false, anyAdvantage = false, anyReward = false, anyTokens = false;
    for (auto &[step, samples] : steps) {
        std::unordered_set<std::string> keys;
        for (size_t i = 0; i < samples.size(); ++i) {
            ExternalSample &s = samples[i];
            if (options.groupSize > 0)
                s.group = "block-" + std::to_string(i / static_cast<size_t>(options.groupSize));
            anyGroup = anyGroup || !s.group.empty();
            anyAdvantage = anyAdvantage || s.advantage.has_value();
            anyReward = anyReward || !std::isnan(s.reward);
            anyTokens = anyTokens || s.completionTokens > 0;
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
    if (!anyTokens)
        report.computed.push_back("completion lengths in tokens: not in the dump (the length curves stay empty)");
    if (format == DumpFormat::PrimeRl) {
        report.computed.push_back(primeRl.stepFromWork ? "steps: the step_N folders, else run.work.step (when it was sampled)"
                                                       : "steps: the step_N folders (the step trained on)");
        if (primeRl.scalarAdvantage)
            report.computed.push_back("advantage of a trace without info.advantage: the mean of its nonzero token "
                                      "advantages (prime-rl's scalar_advantage)");
        if (primeRl.unassignedNodes)
            report.computed.push_back("token advantages of sampled nodes without any: 0 (as prime-rl reads them)");
        report.computed.push_back("prompt and completion: the last branch's messages as \"role: text\" lines; a "
                                  "completion of one message is its text");
    }
    if (format == DumpFormat::NemoRl) {
        report.computed.push_back("tokens: the generated ones (token_loss_mask 1 before input_lengths)");
        if (nemoRl.multiTurn)
            report.computed.push_back("prompt of a multi-turn row: the messages before the first of its k generated "
                                      "turns, counted back from the end (content has no roles): 2k − 1 messages, and "
                                      "one more where tokens follow the last generated one");
        if (nemoRl.prevZero)
            report.computed.push_back("prev_logprobs: all 0 (force_on_policy_ratio skips the trainer's pass), not stored");
        if (nemoRl.noIds)
            report.computed.push_back("per-token values of rows without token_ids: not stored (the store keeps them "
                                      "per token id); their mean advantage is kept");
    }
    if (format == DumpFormat::OpenRlhf && openRlhf.tableRowsRead)
        report.computed.push_back("prompts: none in OpenRLHF's wandb table (its text is prompt and completion decoded "
                                  "together)");
    if (openRlhf.completionUndecoded)
        report.computed.push_back("completion text: not in the agent executor's rows; --tokenizer decodes it from "
                                  "observation_tokens");
    else if (openRlhf.tokenizer && format == DumpFormat::OpenRlhf && mappingHas(report.mapped, "observation_tokens"))
        report.computed.push_back("completion text: observation_tokens from the first action_ranges start, decoded "
                                  "with --tokenizer");

    return read;
}

} // namespace

ImportReport importRollouts(RunStore &store, const std::vector<std::string> &paths, const ImportOptions &options)
{
    DumpRead read = readDump(paths, options, nullptr);
    ImportReport &report = read.report;
    const DumpFormat format = report.format;
    const std::string &modelDir = read.modelDir;

    // Write.
    report.runName = options.runName.empty() ? defaultRunName(paths.front()) : options.runName;
    json config = {{"imported", {{"format", dumpFormatName(format)}, {"paths", paths}, {"files", report.files}}}};
    if (options.groupSize > 0)
        config["imported"]["group_size"] = options.groupSize;
    if (!options.weights.empty())
        config["imported"]["weights"] = options.weights;
    if (!modelDir.empty())
        config["model"] = modelDir; // the token view decodes the token ids with it
    const int64_t totalSteps = static_cast<int64_t>(read.steps.size());
    int64_t written = 0;
    const auto goOn = [&] { return !options.progress || options.progress(ImportPhase::Writing, written, totalSteps); };
    if (!goOn())
        throw ImportCancelled("cancelled before writing: nothing was imported");
    report.runId = store.beginRun(report.runName, RunKind::External, config.dump(), options.task);
    try {
        for (auto &[step, samples] : read.steps) {
            writeExternalStep(store, report.runId, step, std::move(samples));
            ++written;
            if (!goOn())
                throw ImportCancelled("cancelled after writing " + std::to_string(written) + " of "
                                      + std::to_string(totalSteps) + " steps");
        }
    } catch (const ImportCancelled &e) {
        // No part of a dump stays: the run begun goes again.
        try {
            store.deleteRun(report.runId, /*staleAfterSeconds=*/0);
        } catch (const std::exception &d) {
            store.finishRun(report.runId, RunStatus::Stopped, e.what());
            throw ImportCancelled(std::string(e.what()) + "; run " + std::to_string(report.runId)
                                  + " could not be deleted (" + d.what() + ") and is marked stopped");
        }
        throw ImportCancelled(std::string(e.what()) + ": the run begun was deleted, nothing was imported");
    } catch (const std::exception &e) {
        store.finishRun(report.runId, RunStatus::Failed, e.what());
        throw;
    }
    store.finishRun(report.runId, RunStatus::Finished);
    return report;
}

ImportPreview previewImport(const std::vector<std::string> &paths, const ImportOptions &options, size_t maxRows)
{
    const ReadLimits limits{std::max<size_t>(maxRows, 1)};
    DumpRead read = readDump(paths, options, &limits);
    ImportPreview preview;
    preview.report = std::move(read.report);
    preview.report.runName = options.runName.empty() ? defaultRunName(paths.front()) : options.runName;
    preview.allFiles = std::move(read.allFiles);
    preview.notRead = std::move(read.notRead);
    preview.rows = std::move(read.rows);
    preview.partial = read.partial;
    return preview;
}

} // namespace rwb::store
