#include "mcts/treejson.h"

#include "data/jsonl.h"

#include <nlohmann/json.hpp>

#include <cmath>
#include <functional>

namespace rwb::mcts {

using nlohmann::json;
using nlohmann::ordered_json;

ordered_json toProragJson(const SearchTree &tree)
{
    const std::function<ordered_json(int)> write = [&](int id) {
        const Node &n = tree.node(id);
        ordered_json j;
        j["action"] = n.step;
        j["q"] = n.valueSum;
        j["n"] = n.visits;
        j["prior"] = n.prior;
        j["depth"] = n.depth;
        j["terminal"] = n.terminal;
        if (n.terminal)
            j["value"] = n.terminalValue;
        j["iteration"] = n.iterationCreated;
        j["id"] = n.id;
        if (n.tokens > 0) {
            j["tokens"] = n.tokens;
            j["log_prob"] = n.logProb;
        }
        if (!n.retrieved.empty())
            j["retrieved"] = n.retrieved;
        if (n.terminal)
            j["answer"] = n.answer;
        ordered_json children = ordered_json::array();
        for (int c : n.children)
            children.push_back(write(c));
        j["children"] = std::move(children);
        return j;
    };
    return write(SearchTree::kRoot);
}

SearchTree fromProragJson(const json &root, const std::string &source, const std::string &rootPath)
{
    SearchTree tree;
    const auto fail = [&](const std::string &path, const std::string &what, const json *found) {
        std::string reason = path + ": " + what;
        if (found)
            reason += ", found " + found->dump().substr(0, 60);
        throw data::InputException({source, 0, reason});
    };
    const std::function<void(const json &, const std::string &, int, int)> read = [&](const json &j,
                                                                                   const std::string &path, int id,
                                                                                   int depth) {
        if (!j.is_object())
            fail(path, "expected a node object {action, q, n, prior, depth, children}", &j);
        const auto number = [&](const char *key, bool required, double fallback) {
            const auto it = j.find(key);
            if (it == j.end()) {
                if (required)
                    fail(path + "." + key, "missing", nullptr);
                return fallback;
            }
            if (!it->is_number() || !std::isfinite(it->get<double>()))
                fail(path + "." + key, "expected a number", &*it);
            return it->get<double>();
        };
        const double q = number("q", true, 0.0);
        const auto nIt = j.find("n");
        if (nIt == j.end())
            fail(path + ".n", "missing", nullptr);
        if (!nIt->is_number_integer() || nIt->get<int64_t>() < 0 || nIt->get<int64_t>() > 1'000'000'000)
            fail(path + ".n", "expected a whole number ≥ 0", &*nIt);
        if (const auto d = j.find("depth"); d != j.end() && (!d->is_number_integer() || d->get<int64_t>() != depth))
            fail(path + ".depth", "expected " + std::to_string(depth) + " (its parent's depth + 1)", &*d);
        tree.setStatistics(id, static_cast<int>(nIt->get<int64_t>()), q);
        Node &detail = tree.detail(id);
        if (const auto t = j.find("tokens"); t != j.end()) {
            if (!t->is_number_integer() || t->get<int64_t>() < 0)
                fail(path + ".tokens", "expected a whole number ≥ 0", &*t);
            detail.tokens = static_cast<int>(t->get<int64_t>());
        }
        detail.logProb = number("log_prob", false, 0.0);
        if (const auto r = j.find("retrieved"); r != j.end()) {
            if (!r->is_array())
                fail(path + ".retrieved", "expected an array of passage ids", &*r);
            for (size_t k = 0; k < r->size(); ++k) {
                if (!(*r)[k].is_string())
                    fail(path + ".retrieved[" + std::to_string(k) + "]", "expected a passage id", &(*r)[k]);
                detail.retrieved.push_back((*r)[k].get<std::string>());
            }
        }
        if (const auto a = j.find("answer"); a != j.end()) {
            if (!a->is_string())
                fail(path + ".answer", "expected the answer's text", &*a);
            detail.answer = a->get<std::string>();
        }
        if (const auto t = j.find("terminal"); t != j.end()) {
            if (!t->is_boolean())
                fail(path + ".terminal", "expected true or false", &*t);
            if (t->get<bool>())
                tree.setTerminal(id, number("value", true, 0.0));
        }
        const auto children = j.find("children");
        if (children == j.end())
            return; // a leaf may leave them out
        if (!children->is_array())
            fail(path + ".children", "expected an array", &*children);
        for (size_t k = 0; k < children->size(); ++k) {
            const json &c = (*children)[k];
            const std::string childPath = path + ".children[" + std::to_string(k) + "]";
            if (!c.is_object())
                fail(childPath, "expected a node object", &c);
            const auto action = c.find("action");
            if (action == c.end() || !action->is_string())
                fail(childPath + ".action", "expected the step's text", action == c.end() ? nullptr : &*action);
            const double prior = [&] {
                const auto p = c.find("prior");
                if (p == c.end() || !p->is_number() || !(p->get<double>() >= 0.0 && p->get<double>() <= 1.0))
                    fail(childPath + ".prior", "expected a number within 0–1", p == c.end() ? nullptr : &*p);
                return p->get<double>();
            }();
            int iteration = 0;
            if (const auto it = c.find("iteration"); it != c.end()) {
                if (!it->is_number_integer() || it->get<int64_t>() < 0)
                    fail(childPath + ".iteration", "expected a whole number ≥ 0", &*it);
                iteration = static_cast<int>(it->get<int64_t>());
            }
            const int child = tree.addChild(id, action->get<std::string>(), prior, iteration);
            read(c, childPath, child, depth + 1);
        }
    };
    read(root, rootPath, SearchTree::kRoot, 0);

    // Our files number the nodes in the order the search created them ("id"), which is
    // not the nested order; iteration logs refer to those ids. When every node has one,
    // the tree is rebuilt with them: a permutation of 0 … n−1 with every parent created
    // before its children.
    std::vector<int> ids;
    std::vector<std::string> paths;
    bool all = true;
    const std::function<void(const json &, const std::string &)> collect = [&](const json &j, const std::string &path) {
        const auto it = j.find("id");
        if (it == j.end()) {
            all = false;
        } else {
            if (!it->is_number_integer() || it->get<int64_t>() < 0 ||
                it->get<int64_t>() >= static_cast<int64_t>(tree.nodes().size()))
                fail(path + ".id", "expected a node number below " + std::to_string(tree.nodes().size()), &*it);
            ids.push_back(static_cast<int>(it->get<int64_t>()));
        }
        paths.push_back(path);
        if (const auto c = j.find("children"); c != j.end())
            for (size_t k = 0; k < c->size(); ++k)
                collect((*c)[k], path + ".children[" + std::to_string(k) + "]");
    };
    collect(root, rootPath);
    if (!all)
        return tree;
    const size_t n = tree.nodes().size();
    std::vector<int> byId(n, -1); // JSON id → nested (DFS) index
    for (size_t i = 0; i < n; ++i) {
        if (byId[static_cast<size_t>(ids[i])] >= 0)
            fail(paths[i] + ".id", "repeats node " + std::to_string(ids[i]), nullptr);
        byId[static_cast<size_t>(ids[i])] = static_cast<int>(i);
    }
    if (ids[0] != 0)
        fail(rootPath + ".id", "expected 0 at the root", nullptr);
    SearchTree out;
    const auto copyDetail = [&](const Node &from, int to) {
        out.setStatistics(to, from.visits, from.valueSum);
        if (from.terminal)
            out.setTerminal(to, from.terminalValue);
        Node &d = out.detail(to);
        d.tokens = from.tokens;
        d.logProb = from.logProb;
        d.retrieved = from.retrieved;
        d.answer = from.answer;
    };
    copyDetail(tree.node(SearchTree::kRoot), SearchTree::kRoot);
    for (size_t id = 1; id < n; ++id) {
        const Node &from = tree.node(byId[id]);
        const int parent = ids[static_cast<size_t>(from.parent)];
        if (parent >= static_cast<int>(id))
            fail(paths[static_cast<size_t>(byId[id])] + ".id",
                 "node " + std::to_string(id) + " is numbered before its parent " + std::to_string(parent), nullptr);
        const int made = out.addChild(parent, from.step, from.prior, from.iterationCreated);
        copyDetail(from, made);
    }
    return out;
}

} // namespace rwb::mcts
