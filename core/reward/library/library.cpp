#include "reward/library/library.h"

#include "reward/library/formrewards.h"
#include "reward/library/jsonrewards.h"
#include "reward/library/matchrewards.h"
#include "reward/python/pythonreward.h"
#include "reward/remote/remotereward.h"
#include "reward/registry.h"

namespace rwb::reward {

namespace {

template <class R>
Registry::Factory factory()
{
    return [](const RewardOptions &options) -> std::unique_ptr<Reward> { return std::make_unique<R>(options); };
}

} // namespace

void addLibraryRewards(Registry &registry)
{
    // The descriptions are what `rwb reward list` prints; the workbench shows its own
    // translated ones (widgets/rewardtext.cpp, RewardText::description).
    registry.add({"exact_match", "", "1 when the answer equals the reference (the gold or a column) after normalization",
                  factory<ExactMatchReward>()});
    registry.add({"contains", "",
                  "the share of the required strings in the completion (or 1 when any is); 0 when a forbidden one occurs",
                  factory<ContainsReward>()});
    registry.add({"regex", "", "1 when the regular expression (Python syntax) matches the completion",
                  factory<RegexReward>()});
    registry.add({"numeric", "", "1 when the answer's last number equals the reference's within a tolerance",
                  factory<NumericReward>()});
    registry.add({"f1", "", "F1 of the answer's tokens (or characters) against the reference's, as SQuAD counts them",
                  factory<F1Reward>()});
    registry.add({"json_valid", "", "1 when the answer is valid JSON (of the wanted type)", factory<JsonValidReward>()});
    registry.add({"json_schema", "", "1 when the answer is JSON that matches a JSON Schema (a documented subset)",
                  factory<JsonSchemaReward>()});
    registry.add({"json_fields", "", "the share of the reference object's fields that the answer's object has equal",
                  factory<JsonFieldsReward>()});
    registry.add({"tag_format", "", "1 when each tag (<think>, <answer>) occurs exactly once, in order",
                  factory<TagFormatReward>()});
    registry.add({"length", "", "1 when the completion's length in words or characters is within [min, max], less outside",
                  factory<LengthReward>()});
    registry.add({"language", "",
                  "the share of the completion's letters in the language's scripts (script identification)",
                  factory<LanguageReward>()});
    registry.add({"repetition", "", "distinct n-grams / n-grams of the completion (1: nothing repeats)",
                  factory<RepetitionReward>()});
    // A user's own Python function (TRL's or verl's signature), in a worker process.
    addPythonRewards(registry);
    addRemoteRewards(registry);
}

} // namespace rwb::reward
