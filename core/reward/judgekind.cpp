#include "reward/judgekind.h"

#include "reward/judgekinds/builtin.h"
#include "reward/judgerewards.h"
#include "task/task.h"

#include <map>
#include <mutex>
#include <stdexcept>

namespace rwb::reward {

namespace {

struct Kinds {
    std::mutex mutex;
    std::map<std::string, std::shared_ptr<const JudgeKind>, std::less<>> byName;
};

Kinds &kinds()
{
    static Kinds *k = [] {
        auto *out = new Kinds;
        for (std::shared_ptr<const JudgeKind> kind :
             {judgekinds::legal(true), judgekinds::legal(false), judgekinds::rubricExplicit(),
              judgekinds::rating("rubric_implicit"), judgekinds::rating("likert_simple"),
              judgekinds::rating("likert_reference")})
            out->byName.emplace(std::string(kind->name()), std::move(kind));
        return out;
    }();
    return *k;
}

} // namespace

double JudgeKind::aggregate(const std::vector<JudgeAsk> &, const std::vector<double> &values,
                            const JudgeRewardOptions &) const
{
    return values.front();
}

std::string JudgeKind::verdictLine(const std::string &) const
{
    return {};
}

void registerJudgeKind(std::shared_ptr<const JudgeKind> kind)
{
    if (!kind)
        throw std::invalid_argument("registerJudgeKind: no kind");
    Kinds &k = kinds();
    const std::lock_guard<std::mutex> lock(k.mutex);
    k.byName[std::string(kind->name())] = std::move(kind);
}

std::shared_ptr<const JudgeKind> findJudgeKind(std::string_view name)
{
    Kinds &k = kinds();
    const std::lock_guard<std::mutex> lock(k.mutex);
    const auto it = k.byName.find(name);
    return it == k.byName.end() ? nullptr : it->second;
}

std::vector<std::string> judgeKindNames()
{
    Kinds &k = kinds();
    const std::lock_guard<std::mutex> lock(k.mutex);
    std::vector<std::string> out;
    for (const auto &[name, kind] : k.byName)
        out.push_back(name);
    return out;
}

const judge::Rubric &rubricOf(const task::JudgedExample &e, const JudgeRewardOptions &o, const std::string &id)
{
    if (const judge::Rubric *r = e.judgeRubric())
        return *r;
    if (o.rubric)
        return *o.rubric;
    throw std::invalid_argument("example " + id + " has no rubric, and the component has no rubric_file (options)");
}

} // namespace rwb::reward
