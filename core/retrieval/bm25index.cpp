#include "retrieval/bm25index.h"

#include "data/jsonl.h"
#include "retrieval/indexfile.h"
#include "sqlite/statement.h"
#include "text/normalize.h"
#include "text/utf8.h"

#include <utf8proc.h>

#include <cmath>
#include <filesystem>
#include <stdexcept>
#include <unordered_set>

namespace rwb::retrieval {

namespace {

// Passages between two progress reports while building.
constexpr size_t kProgressEvery = 256;

// The schema of format version 1 (DenseRetriever adds its own tables).
std::string schemaSql(Bm25Index::Tokenizer tokenizer)
{
    const char *tokenize =
        tokenizer == Bm25Index::Tokenizer::Trigram ? "trigram case_sensitive 1" : "ascii";
    return "CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);\n"
           "CREATE TABLE passages(seq INTEGER PRIMARY KEY, id TEXT NOT NULL UNIQUE, title TEXT NOT NULL,\n"
           "                      text TEXT NOT NULL, meta TEXT NOT NULL);\n"
           "CREATE VIRTUAL TABLE passages_fts USING fts5(title, text, content='', tokenize='" +
           std::string(tokenize) + "');\n";
}

// The normalized code points with ASCII A–Z lower-cased: what both tokenizers see.
std::u32string foldedCodePoints(std::string_view text)
{
    std::u32string cps = text::normalize32(text);
    for (char32_t &c : cps)
        if (c >= U'A' && c <= U'Z')
            c = c - U'A' + U'a';
    return cps;
}

// Letters, digits, marks and private-use characters: what a bigram may consist of.
bool isWordChar(char32_t c)
{
    switch (utf8proc_category(static_cast<utf8proc_int32_t>(c))) {
    case UTF8PROC_CATEGORY_LU:
    case UTF8PROC_CATEGORY_LL:
    case UTF8PROC_CATEGORY_LT:
    case UTF8PROC_CATEGORY_LM:
    case UTF8PROC_CATEGORY_LO:
    case UTF8PROC_CATEGORY_MN:
    case UTF8PROC_CATEGORY_MC:
    case UTF8PROC_CATEGORY_ME:
    case UTF8PROC_CATEGORY_ND:
    case UTF8PROC_CATEGORY_NL:
    case UTF8PROC_CATEGORY_NO:
    case UTF8PROC_CATEGORY_CO:
        return true;
    default:
        return false;
    }
}

// Every n-gram of `text` under `tokenizer`, in order, repeats kept.
std::vector<std::string> allTerms(std::string_view text, Bm25Index::Tokenizer tokenizer)
{
    const std::u32string cps = foldedCodePoints(text);
    const size_t n = tokenizer == Bm25Index::Tokenizer::Trigram ? 3 : 2;
    std::vector<std::string> terms;
    for (size_t i = 0; i + n <= cps.size(); ++i) {
        const std::u32string_view gram(cps.data() + i, n);
        if (tokenizer == Bm25Index::Tokenizer::Bigram && !(isWordChar(gram[0]) && isWordChar(gram[1])))
            continue;
        terms.push_back(text::encodeUtf8(gram));
    }
    return terms;
}

// An FTS5 string: the term in double quotes, its own quotes doubled.
std::string quoted(const std::string &term)
{
    std::string out = "\"";
    for (char c : term) {
        if (c == '"')
            out += '"';
        out += c;
    }
    return out + "\"";
}

} // namespace

std::string Bm25Index::tokenizerName(Tokenizer tokenizer)
{
    return tokenizer == Tokenizer::Trigram ? "trigram" : "bigram";
}

std::optional<Bm25Index::Tokenizer> Bm25Index::parseTokenizer(std::string_view name)
{
    if (name == "trigram")
        return Tokenizer::Trigram;
    if (name == "bigram")
        return Tokenizer::Bigram;
    return std::nullopt;
}

std::vector<std::string> Bm25Index::queryTerms(std::string_view text, Tokenizer tokenizer)
{
    std::vector<std::string> distinct;
    std::unordered_set<std::string> seen;
    for (std::string &t : allTerms(text, tokenizer))
        if (seen.insert(t).second)
            distinct.push_back(std::move(t));
    return distinct;
}

std::string Bm25Index::indexedText(std::string_view text, Tokenizer tokenizer)
{
    if (tokenizer == Tokenizer::Trigram)
        return text::encodeUtf8(foldedCodePoints(text));
    std::string out;
    for (const std::string &t : allTerms(text, tokenizer)) {
        if (!out.empty())
            out += ' ';
        out += t;
    }
    return out;
}

bool Bm25Index::build(const Corpus &corpus, const std::string &path, const BuildOptions &options)
{
    namespace fs = std::filesystem;
    if (corpus.empty())
        throw std::invalid_argument(path + ": no passages to index");
    const std::string part = path + ".part";
    auto removePart = [&] {
        std::error_code ec;
        fs::remove(part, ec);
        fs::remove(part + "-journal", ec);
    };
    removePart(); // left over from a build that was killed
    try {
        bool cancelled = false;
        {
            IndexFile db(part, IndexFile::Mode::Create);
            db.exec("BEGIN", "cannot start the build");
            db.exec(schemaSql(options.tokenizer), "cannot create the index tables");
            sqlite::Statement addPassage(db, "INSERT INTO passages(seq, id, title, text, meta) VALUES (?, ?, ?, ?, ?)");
            sqlite::Statement addFts(db, "INSERT INTO passages_fts(rowid, title, text) VALUES (?, ?, ?)");
            const std::vector<Passage> &passages = corpus.passages();
            for (size_t i = 0; i < passages.size(); ++i) {
                const Passage &p = passages[i];
                const int64_t seq = static_cast<int64_t>(i) + 1;
                addPassage.bind(1, seq);
                addPassage.bindTextCopy(2, p.id);
                addPassage.bindTextCopy(3, p.title);
                addPassage.bindTextCopy(4, p.text);
                addPassage.bindTextCopy(5, p.meta);
                addPassage.run();
                addFts.bind(1, seq);
                addFts.bindTextCopy(2, indexedText(p.title, options.tokenizer));
                addFts.bindTextCopy(3, indexedText(p.text, options.tokenizer));
                addFts.run();
                if (options.progress && ((i + 1) % kProgressEvery == 0 || i + 1 == passages.size()) &&
                    !options.progress(i + 1, passages.size())) {
                    cancelled = true;
                    break;
                }
            }
            if (!cancelled) {
                sqlite::Statement addMeta(db, "INSERT INTO meta(key, value) VALUES (?, ?)");
                const std::pair<const char *, std::string> meta[] = {
                    {"format", kFormat},
                    {"version", std::to_string(kFormatVersion)},
                    {"tokenizer", tokenizerName(options.tokenizer)},
                    {"passages", std::to_string(passages.size())},
                };
                for (const auto &[key, value] : meta) {
                    addMeta.bindTextCopy(1, key);
                    addMeta.bindTextCopy(2, value);
                    addMeta.run();
                }
                // One b-tree per term instead of one per flushed batch: faster queries.
                db.exec("INSERT INTO passages_fts(passages_fts) VALUES ('optimize')", "cannot optimize the index");
                db.exec("COMMIT", "cannot commit the index");
            }
        } // closed here; an uncommitted transaction rolls back
        if (cancelled) {
            removePart();
            return false;
        }
        if (options.extend)
            options.extend(part);
        fs::rename(part, path);
    } catch (...) {
        removePart();
        throw;
    }
    return true;
}

Bm25Index::Bm25Index(const std::string &path)
    : m_path(path), m_db(std::make_unique<IndexFile>(path, IndexFile::Mode::ReadOnly))
{
    auto notIndex = [&](const std::string &why) {
        return data::InputException({path, 0, "not a retrieval index (" + why + ")"});
    };
    std::string format, version, tokenizer, passages;
    try {
        sqlite::Statement meta(*m_db, "SELECT key, value FROM meta");
        while (meta.step()) {
            const std::string key = meta.columnText(0);
            if (key == "format")
                format = meta.columnText(1);
            else if (key == "version")
                version = meta.columnText(1);
            else if (key == "tokenizer")
                tokenizer = meta.columnText(1);
            else if (key == "passages")
                passages = meta.columnText(1);
        }
    } catch (const std::runtime_error &) { // no meta table, not a database
        throw notIndex(m_db->lastError());
    }
    if (format != kFormat)
        throw notIndex("meta.format is \"" + format + "\", not \"" + kFormat + "\"");
    if (version.empty() || version.find_first_not_of("0123456789") != std::string::npos)
        throw notIndex("meta.version \"" + version + "\" is not a number");
    if (version.size() > 9 || std::stoi(version) > kFormatVersion)
        throw data::InputException({path, 0, "made by a newer version of rwb (index format " + version +
                                                 "; this one reads up to " + std::to_string(kFormatVersion) + ")"});
    const std::optional<Tokenizer> t = parseTokenizer(tokenizer);
    if (!t)
        throw notIndex("unknown tokenizer \"" + tokenizer + "\"");
    m_tokenizer = *t;
    if (passages.empty() || passages.find_first_not_of("0123456789") != std::string::npos)
        throw notIndex("meta.passages \"" + passages + "\" is not a number");
    m_passages = static_cast<size_t>(std::stoull(passages));
}

Bm25Index::~Bm25Index() = default;

void Bm25Index::setTitleWeight(double weight)
{
    if (!(weight >= 0.0) || !std::isfinite(weight))
        throw std::invalid_argument("title weight must be a finite number >= 0");
    m_titleWeight = weight;
}

std::vector<Hit> Bm25Index::search(const std::string &query, int k) const
{
    if (k <= 0)
        return {};
    const std::vector<std::string> terms = queryTerms(query, m_tokenizer);
    if (terms.empty())
        return {};
    std::string match;
    for (const std::string &t : terms)
        match += (match.empty() ? "" : " OR ") + quoted(t);
    sqlite::Statement s(*m_db, "SELECT p.id, f.s FROM (SELECT rowid AS seq, bm25(passages_fts, ?1, 1.0) AS s "
                                   "FROM passages_fts WHERE passages_fts MATCH ?2) AS f "
                                   "JOIN passages AS p ON p.seq = f.seq ORDER BY f.s, f.seq LIMIT ?3");
    s.bind(1, m_titleWeight);
    s.bindTextCopy(2, match);
    s.bind(3, static_cast<int64_t>(k));
    std::vector<Hit> hits;
    while (s.step())
        hits.push_back({s.columnText(0), -s.columnDouble(1), static_cast<int>(hits.size()) + 1});
    return hits;
}

Corpus Bm25Index::passages() const
{
    sqlite::Statement s(*m_db, "SELECT id, title, text, meta FROM passages ORDER BY seq");
    std::vector<Passage> out;
    out.reserve(m_passages);
    while (s.step())
        out.push_back({s.columnText(0), s.columnText(1), s.columnText(2), s.columnText(3)});
    return Corpus(std::move(out));
}

} // namespace rwb::retrieval
