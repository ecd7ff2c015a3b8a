#include "mcts/searchrecord.h"

#include "data/jsonl.h"
#include "mcts/treejson.h"
#include "util/boundedjson.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <type_traits>

namespace rwb::mcts {

using nlohmann::json;
using nlohmann::ordered_json;

SearchTree SearchRecord::treeAt(int i) const
{
    if (i < 0 || i > static_cast<int>(iterations.size()))
        throw std::out_of_range("search record: no iteration " + std::to_string(i) + " (it has " +
                                std::to_string(iterations.size()) + ")");
    int count = 1;
    for (const Node &n : tree.nodes())
        if (n.iterationCreated <= i)
            count = std::max(count, n.id + 1);
    SearchTree out = tree.prefix(count);
    for (int k = 0; k < i; ++k) {
        const Iteration &it = iterations[static_cast<size_t>(k)];
        if (!it.backedUp.empty())
            out.backup(it.backedUp, it.value, params.gamma, it.terminalDepth);
    }
    return out;
}

const Node *SearchRecord::bestTerminal() const
{
    const Node &last = tree.node(tree.mostVisitedPath().back());
    return last.terminal ? &last : nullptr;
}

double SearchRecord::bestFoundValue() const
{
    double best = 0;
    for (const Node &n : tree.nodes())
        if (n.terminal)
            best = std::max(best, n.terminalValue);
    for (const Iteration &it : iterations)
        best = std::max(best, it.value);
    return best;
}

double SearchRecord::bestFoundScore(const std::function<double(const std::string &)> &score) const
{
    double best = 0;
    for (const Node &n : tree.nodes())
        if (n.terminal && !n.answer.empty())
            best = std::max(best, score(n.answer));
    for (const Iteration &it : iterations)
        if (!it.simulationAnswer.empty())
            best = std::max(best, score(it.simulationAnswer));
    return best;
}

int SearchRecord::maxDepth() const
{
    int d = 0;
    for (const Node &n : tree.nodes())
        d = std::max(d, n.depth);
    return d;
}

ordered_json toJson(const SearchParams &p)
{
    ordered_json j;
    j["simulations"] = p.simulations;
    j["expansions"] = p.expansions;
    j["max_depth"] = p.maxDepth;
    j["c_puct"] = p.cPuct;
    j["gamma"] = p.gamma;
    j["temperature"] = p.temperature;
    j["max_step_tokens"] = p.maxStepTokens;
    j["top_k"] = p.topK;
    j["seed"] = p.seed;
    j["value"] = p.value;
    return j;
}

TreeSummary summarize(const SearchRecord &r, int64_t treeId)
{
    TreeSummary s;
    s.treeId = treeId;
    s.questionId = r.questionId;
    s.question = r.question;
    s.goldAnswer = r.goldAnswer;
    s.hops = r.hops;
    if (const Node *best = r.bestTerminal()) {
        s.bestAnswer = best->answer;
        s.bestValue = best->terminalValue;
    }
    s.foundValue = r.bestFoundValue();
    s.nodes = static_cast<int>(r.tree.nodes().size());
    s.depth = r.maxDepth();
    s.iterations = static_cast<int>(r.iterations.size());
    s.complete = s.iterations >= r.params.simulations;
    return s;
}

ordered_json toRecordJson(const SearchRecord &r)
{
    ordered_json j;
    j["format"] = "rwb-mcts-record";
    j["version"] = 1;
    j["question"] = {{"id", r.questionId},
                     {"text", r.question},
                     {"answer", r.goldAnswer},
                     {"gold_passages", r.goldPassages},
                     {"hops", r.hops}};
    j["params"] = toJson(r.params);
    ordered_json its = ordered_json::array();
    for (const Iteration &it : r.iterations) {
        ordered_json o;
        o["index"] = it.index;
        o["selected"] = it.selected;
        o["expanded"] = it.expanded;
        o["created"] = it.created;
        o["backed_up"] = it.backedUp;
        o["value"] = it.value;
        o["terminal_depth"] = it.terminalDepth;
        o["simulation"] = it.simulation;
        o["simulation_answer"] = it.simulationAnswer;
        o["seconds"] = it.seconds;
        its.push_back(std::move(o));
    }
    j["iterations"] = std::move(its);
    j["mcts_tree"] = toProragJson(r.tree);
    return j;
}

namespace {

[[noreturn]] void fail(const std::string &source, const std::string &path, const std::string &what, const json *found)
{
    std::string reason = path + ": " + what;
    if (found)
        reason += ", found " + found->dump().substr(0, 60);
    throw data::InputException({source, 0, reason});
}

std::vector<int> readPath(const json &o, const char *key, const std::string &path, const SearchTree &tree,
                          const std::string &source)
{
    std::vector<int> out;
    const auto it = o.find(key);
    if (it == o.end())
        return out;
    if (!it->is_array())
        fail(source, path + "." + key, "expected an array of node ids", &*it);
    for (size_t k = 0; k < it->size(); ++k) {
        const json &v = (*it)[k];
        if (!v.is_number_integer() || v.get<int64_t>() < 0 || v.get<int64_t>() >= static_cast<int64_t>(tree.nodes().size()))
            fail(source, path + "." + key + "[" + std::to_string(k) + "]",
                 "expected a node id below " + std::to_string(tree.nodes().size()), &v);
        out.push_back(static_cast<int>(v.get<int64_t>()));
    }
    return out;
}

} // namespace

SearchRecord fromRecordJson(const json &root, const std::string &source)
{
    SearchRecord r;
    if (!root.is_object())
        fail(source, "(top level)", "expected a search record or a ProRAG tree (a JSON object)", &root);
    if (!root.contains("mcts_tree")) { // a bare ProRAG tree
        r.tree = fromProragJson(root, source, "(tree)");
        return r;
    }
    if (const auto f = root.find("format"); f != root.end() && *f != "rwb-mcts-record")
        fail(source, "format", "expected \"rwb-mcts-record\"", &*f);
    if (const auto v = root.find("version"); v != root.end() && (!v->is_number_integer() || v->get<int64_t>() > 1))
        fail(source, "version", "this version of Reward Workbench reads version 1", &*v);
    if (const auto q = root.find("question"); q != root.end()) {
        if (!q->is_object())
            fail(source, "question", "expected an object {id, text, answer, gold_passages}", &*q);
        const auto text = [&](const char *key, std::string &out) {
            if (const auto it = q->find(key); it != q->end()) {
                if (!it->is_string())
                    fail(source, std::string("question.") + key, "expected a string", &*it);
                out = it->get<std::string>();
            }
        };
        text("id", r.questionId);
        text("text", r.question);
        text("answer", r.goldAnswer);
        if (const auto g = q->find("gold_passages"); g != q->end()) {
            if (!g->is_array())
                fail(source, "question.gold_passages", "expected an array of passage ids", &*g);
            for (size_t k = 0; k < g->size(); ++k) {
                if (!(*g)[k].is_string())
                    fail(source, "question.gold_passages[" + std::to_string(k) + "]", "expected a passage id", &(*g)[k]);
                r.goldPassages.push_back((*g)[k].get<std::string>());
            }
        }
        if (const auto h = q->find("hops"); h != q->end() && h->is_number_integer())
            r.hops = h->get<int>();
    }
    if (const auto p = root.find("params"); p != root.end()) {
        if (!p->is_object())
            fail(source, "params", "expected an object", &*p);
        const auto num = [&](const char *key, auto &out) {
            if (const auto it = p->find(key); it != p->end()) {
                if (!it->is_number() || !std::isfinite(it->get<double>()))
                    fail(source, std::string("params.") + key, "expected a number", &*it);
                using T = std::decay_t<decltype(out)>;
                if constexpr (std::is_integral_v<T>) {
                    // A double outside T's range does not convert (undefined behaviour;
                    // found by fuzz_mcts_tree): a whole number within it is needed.
                    const double d = it->get<double>();
                    const double upper = std::ldexp(1.0, std::numeric_limits<T>::digits);
                    const double lower = std::is_signed_v<T> ? -upper : 0.0;
                    if (!(d >= lower && d < upper) || d != std::floor(d))
                        fail(source, std::string("params.") + key, "expected a whole number within range", &*it);
                }
                out = it->get<T>();
            }
        };
        SearchParams &s = r.params;
        num("simulations", s.simulations);
        num("expansions", s.expansions);
        num("max_depth", s.maxDepth);
        num("c_puct", s.cPuct);
        num("gamma", s.gamma);
        num("temperature", s.temperature);
        num("max_step_tokens", s.maxStepTokens);
        num("top_k", s.topK);
        num("seed", s.seed);
        if (const auto v = p->find("value"); v != p->end()) {
            if (!v->is_string() || (*v != "f1" && *v != "em"))
                fail(source, "params.value", "expected \"f1\" or \"em\"", &*v);
            s.value = v->get<std::string>();
        }
        if (!(s.gamma > 0.0 && s.gamma <= 1.0))
            fail(source, "params.gamma", "expected a number within (0, 1]", &p->at("gamma"));
    }
    r.tree = fromProragJson(root.at("mcts_tree"), source, "mcts_tree");
    const auto its = root.find("iterations");
    if (its == root.end())
        return r;
    if (!its->is_array())
        fail(source, "iterations", "expected an array", &*its);
    for (size_t k = 0; k < its->size(); ++k) {
        const json &o = (*its)[k];
        const std::string path = "iterations[" + std::to_string(k) + "]";
        if (!o.is_object())
            fail(source, path, "expected an iteration object", &o);
        Iteration it;
        it.index = static_cast<int>(k) + 1;
        if (const auto i = o.find("index"); i != o.end() && (!i->is_number_integer() || i->get<int64_t>() != it.index))
            fail(source, path + ".index", "expected " + std::to_string(it.index), &*i);
        it.selected = readPath(o, "selected", path, r.tree, source);
        it.created = readPath(o, "created", path, r.tree, source);
        it.backedUp = readPath(o, "backed_up", path, r.tree, source);
        if (const auto e = o.find("expanded"); e != o.end()) {
            if (!e->is_number_integer() || e->get<int64_t>() < -1 || e->get<int64_t>() >= static_cast<int64_t>(r.tree.nodes().size()))
                fail(source, path + ".expanded", "expected a node id or -1", &*e);
            it.expanded = e->get<int>();
        }
        if (const auto v = o.find("value"); v != o.end()) {
            if (!v->is_number() || !std::isfinite(v->get<double>()))
                fail(source, path + ".value", "expected a number", &*v);
            it.value = v->get<double>();
        }
        if (const auto t = o.find("terminal_depth"); t != o.end()) {
            if (!t->is_number_integer() || t->get<int64_t>() < 0)
                fail(source, path + ".terminal_depth", "expected a whole number ≥ 0", &*t);
            it.terminalDepth = t->get<int>();
        }
        if (const auto s = o.find("simulation"); s != o.end() && s->is_string())
            it.simulation = s->get<std::string>();
        if (const auto s = o.find("simulation_answer"); s != o.end() && s->is_string())
            it.simulationAnswer = s->get<std::string>();
        if (const auto s = o.find("seconds"); s != o.end() && s->is_number())
            it.seconds = s->get<double>();
        if (!it.backedUp.empty()) {
            if (it.backedUp.front() != SearchTree::kRoot)
                fail(source, path + ".backed_up", "expected a path from the root (node 0)", nullptr);
            for (size_t n = 1; n < it.backedUp.size(); ++n)
                if (r.tree.node(it.backedUp[n]).parent != it.backedUp[n - 1])
                    fail(source, path + ".backed_up[" + std::to_string(n) + "]",
                         "node " + std::to_string(it.backedUp[n]) + " is not a child of node " +
                             std::to_string(it.backedUp[n - 1]),
                         nullptr);
            if (it.terminalDepth < r.tree.node(it.backedUp.back()).depth)
                fail(source, path + ".terminal_depth", "is above the last backed-up node's depth", nullptr);
        }
        r.iterations.push_back(std::move(it));
    }
    return r;
}

SearchRecord readRecordFile(const std::string &path)
{
    const std::string text = data::readTextFile(path);
    json j;
    try {
        j = util::parseJson(text, kMaxTreeFileDepth);
    } catch (const json::parse_error &e) {
        if (util::isTooDeep(e))
            throw data::InputException({path, 0, util::tooDeepMessage(kMaxTreeFileDepth) + ": a tree deeper than " +
                                                      std::to_string(kMaxTreeFileDepth / 2 - 2) + " steps"});
        size_t line = 1, column = 1;
        for (size_t i = 0; i + 1 < e.byte && i < text.size(); ++i) {
            if (text[i] == '\n') {
                ++line;
                column = 1;
            } else {
                ++column;
            }
        }
        throw data::InputException({path, line, "not valid JSON (column " + std::to_string(column) + ")"});
    }
    return fromRecordJson(j, path);
}

} // namespace rwb::mcts
