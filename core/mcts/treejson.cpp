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
    return tree;
}

} // namespace rwb::mcts
