// The run store's preference pairs and labels (schema 7): the RunStore methods declared
// under "preference pairs" in runstore.h.
#include "store/runstore.h"
#include "store/runstoreimpl.h"
#include "util/boundedjson.h"

#include <nlohmann/json.hpp>

namespace rwb::store {

namespace {

constexpr const char *kPairColumns =
    "id, pair_set, coalesce(tree_id, 0), question_id, question, gold, history_json, parent_node, node_a, node_b, "
    "step_a, step_b, value_a, value_b, visits_a, visits_b, origin";

prm::StepPair readPair(const Statement &s, const std::string &path)
{
    prm::StepPair p;
    p.id = s.columnInt(0);
    p.set = s.columnText(1);
    p.treeId = s.columnInt(2);
    p.questionId = s.columnText(3);
    p.question = s.columnText(4);
    p.gold = s.columnText(5);
    const nlohmann::json history = util::parseJsonOrDiscarded(s.columnText(6));
    if (!history.is_array())
        throw StoreError(path, "cannot read pair " + std::to_string(p.id), "history_json is not a JSON array");
    for (const auto &h : history)
        p.history.push_back(h.is_string() ? h.get<std::string>() : h.dump());
    p.parentNode = static_cast<int>(s.columnInt(7));
    p.nodeA = static_cast<int>(s.columnInt(8));
    p.nodeB = static_cast<int>(s.columnInt(9));
    p.stepA = s.columnText(10);
    p.stepB = s.columnText(11);
    p.valueA = s.columnDouble(12);
    p.valueB = s.columnDouble(13);
    p.visitsA = static_cast<int>(s.columnInt(14));
    p.visitsB = static_cast<int>(s.columnInt(15));
    p.origin = s.columnText(16);
    return p;
}

} // namespace

size_t RunStore::addPairs(std::vector<prm::StepPair> &pairs)
{
    d->requireWritable("add preference pairs");
    if (d->version < 7)
        throw StoreError(d->path, "cannot add preference pairs",
                         "the store's schema predates them (open it for writing to upgrade)");
    Transaction t(d->db, d->path);
    Statement insert(d->db,
                     "INSERT OR IGNORE INTO prm_pairs(pair_set, tree_id, question_id, question, gold, history_json, "
                     "parent_node, node_a, node_b, step_a, step_b, value_a, value_b, visits_a, visits_b, origin) "
                     "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                     d->path);
    Statement find(d->db,
                   "SELECT id, step_a = ? FROM prm_pairs WHERE pair_set = ? AND question_id = ? AND "
                   "min(step_a, step_b) = min(?, ?) AND max(step_a, step_b) = max(?, ?) AND history_json = ?",
                   d->path);
    size_t added = 0;
    for (prm::StepPair &p : pairs) {
        if (p.set.empty())
            throw StoreError(d->path, "cannot add a preference pair of question " + p.questionId, "it names no set");
        if (p.origin != "tree" && p.origin != "manual" && p.origin != "import")
            throw StoreError(d->path, "cannot add a preference pair of question " + p.questionId,
                             "origin \"" + p.origin + "\" is not tree, manual or import");
        const std::string history = nlohmann::json(p.history).dump(-1, ' ', false,
                                                                     nlohmann::json::error_handler_t::replace);
        insert.reset();
        insert.bindText(1, p.set);
        if (p.treeId > 0)
            insert.bind(2, p.treeId);
        else
            insert.bindNull(2);
        insert.bindText(3, p.questionId);
        insert.bindText(4, p.question);
        insert.bindText(5, p.gold);
        insert.bindText(6, history);
        insert.bind(7, p.parentNode);
        insert.bind(8, p.nodeA);
        insert.bind(9, p.nodeB);
        insert.bindText(10, p.stepA);
        insert.bindText(11, p.stepB);
        insert.bind(12, p.valueA);
        insert.bind(13, p.valueB);
        insert.bind(14, p.visitsA);
        insert.bind(15, p.visitsB);
        insert.bindText(16, p.origin);
        insert.run();
        if (sqlite3_changes(d->db) == 1) {
            p.id = sqlite3_last_insert_rowid(d->db);
            ++added;
            continue;
        }
        find.reset();
        find.bindText(1, p.stepA);
        find.bindText(2, p.set);
        find.bindText(3, p.questionId);
        find.bindText(4, p.stepA);
        find.bindText(5, p.stepB);
        find.bindText(6, p.stepA);
        find.bindText(7, p.stepB);
        find.bindText(8, history);
        if (!find.step())
            throw StoreError(d->path, "cannot add a preference pair of question " + p.questionId,
                             "it was neither added nor found");
        p.id = find.columnInt(0);
        if (find.columnInt(1) == 0) { // stored with the steps the other way round: take its order
            std::swap(p.stepA, p.stepB);
            std::swap(p.valueA, p.valueB);
            std::swap(p.visitsA, p.visitsB);
            std::swap(p.nodeA, p.nodeB);
        }
    }
    t.commit();
    return added;
}

void RunStore::setLabels(std::vector<prm::Label> &labels)
{
    d->requireWritable("write labels");
    if (d->version < 7)
        throw StoreError(d->path, "cannot write labels", "the store's schema predates them (open it for writing to upgrade)");
    Transaction t(d->db, d->path);
    Statement upsert(d->db,
                     "INSERT INTO prm_labels(pair_id, source, annotator, choice, reason) VALUES (?, ?, ?, ?, ?) "
                     "ON CONFLICT(pair_id, source, annotator) DO UPDATE SET choice = excluded.choice, "
                     "reason = excluded.reason, created = strftime('%Y-%m-%dT%H:%M:%fZ','now') "
                     "RETURNING id, created",
                     d->path);
    Statement exists(d->db, "SELECT 1 FROM prm_pairs WHERE id = ?", d->path);
    for (prm::Label &l : labels) {
        exists.reset();
        exists.bind(1, l.pairId);
        if (!exists.step())
            throw StoreError(d->path, "cannot write a label", "no preference pair " + std::to_string(l.pairId));
        upsert.reset();
        upsert.bind(1, l.pairId);
        upsert.bindText(2, prm::sourceName(l.source));
        upsert.bindText(3, l.annotator);
        upsert.bindText(4, prm::choiceName(l.choice));
        upsert.bindText(5, l.reason);
        if (upsert.step()) {
            l.id = upsert.columnInt(0);
            l.created = upsert.columnText(1);
        }
        while (upsert.step()) {
        }
    }
    t.commit();
}

bool RunStore::removeLabel(int64_t pairId, prm::Source source, const std::string &annotator)
{
    d->requireWritable("remove a label");
    if (d->version < 7)
        return false;
    Statement s(d->db, "DELETE FROM prm_labels WHERE pair_id = ? AND source = ? AND annotator = ?", d->path);
    s.bind(1, pairId);
    s.bindText(2, prm::sourceName(source));
    s.bindText(3, annotator);
    s.run();
    return sqlite3_changes(d->db) > 0;
}

void RunStore::deletePairSet(const std::string &set)
{
    d->requireWritable("delete a pair set");
    if (d->version < 7)
        return;
    Transaction t(d->db, d->path);
    for (const char *sql : {"DELETE FROM prm_labels WHERE pair_id IN (SELECT id FROM prm_pairs WHERE pair_set = ?)",
                            "DELETE FROM prm_pairs WHERE pair_set = ?"}) {
        Statement s(d->db, sql, d->path);
        s.bindText(1, set);
        s.run();
    }
    t.commit();
}

std::vector<RunStore::PairSetInfo> RunStore::pairSets() const
{
    std::vector<PairSetInfo> out;
    if (d->version < 7)
        return out;
    Statement s(d->db,
                "SELECT p.pair_set, count(*), (SELECT count(*) FROM prm_labels l JOIN prm_pairs q ON q.id = l.pair_id "
                "WHERE q.pair_set = p.pair_set) FROM prm_pairs p GROUP BY p.pair_set ORDER BY p.pair_set",
                d->path);
    while (s.step())
        out.push_back({s.columnText(0), s.columnInt(1), s.columnInt(2)});
    return out;
}

std::vector<prm::StepPair> RunStore::pairs(const std::string &set) const
{
    std::vector<prm::StepPair> out;
    if (d->version < 7)
        return out;
    Statement s(d->db,
                std::string("SELECT ") + kPairColumns + " FROM prm_pairs WHERE ? = '' OR pair_set = ? ORDER BY id",
                d->path);
    s.bindText(1, set);
    s.bindText(2, set);
    while (s.step())
        out.push_back(readPair(s, d->path));
    return out;
}

std::vector<prm::Label> RunStore::labels(const std::string &set) const
{
    std::vector<prm::Label> out;
    if (d->version < 7)
        return out;
    Statement s(d->db,
                "SELECT l.id, l.pair_id, l.source, l.annotator, l.choice, l.reason, l.created FROM prm_labels l "
                "JOIN prm_pairs p ON p.id = l.pair_id WHERE ? = '' OR p.pair_set = ? "
                "ORDER BY l.pair_id, l.source, l.annotator",
                d->path);
    s.bindText(1, set);
    s.bindText(2, set);
    while (s.step()) {
        prm::Label l;
        l.id = s.columnInt(0);
        l.pairId = s.columnInt(1);
        const std::string source = s.columnText(2), choice = s.columnText(4);
        if (!prm::parseSource(source, l.source) || !prm::parseChoice(choice, l.choice))
            throw StoreError(d->path, "cannot read label " + std::to_string(l.id),
                             "source \"" + source + "\" or choice \"" + choice + "\" is unknown");
        l.annotator = s.columnText(3);
        l.reason = s.columnText(5);
        l.created = s.columnText(6);
        out.push_back(std::move(l));
    }
    return out;
}

} // namespace rwb::store
