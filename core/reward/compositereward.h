#pragma once

#include "reward/reward.h"
#include "reward/rewardconfig.h"

#include <memory>
#include <string>
#include <vector>

namespace rwb::reward {

class Registry;

// The weighted reward actually optimized: total = Σ wᵢ·rᵢ / Σ wᵢ over the config's
// components; None when a component of weight > 0 is None (reward.h, kNone). Scoring is
// const and thread-safe; setWeights() is not (the training engine swaps weights between
// steps, on its own thread).
class CompositeReward {
public:
    // Builds the components from `registry` (the catalog's, task/catalog.h); throws
    // data::InputException for an invalid config (naming `source`) and when the synonym
    // table it names cannot be read.
    CompositeReward(RewardConfig config, const std::string &source, const Registry &registry);
    ~CompositeReward();
    CompositeReward(CompositeReward &&) noexcept;
    CompositeReward &operator=(CompositeReward &&) noexcept;

    const RewardConfig &config() const { return m_config; }
    bool thinking() const { return m_config.thinking; }
    size_t size() const { return m_components.size(); }
    // The component's label (RewardComponent::label): its reward's name unless the config names it.
    const std::string &componentName(size_t i) const { return m_config.components[i].label(); }
    double weight(size_t i) const { return m_config.components[i].weight; }
    const Reward &component(size_t i) const { return *m_components[i]; }

    // New weights in component order; throws std::invalid_argument if the count is
    // wrong, a weight is negative or not finite, or they sum to 0.
    void setWeights(const std::vector<double> &weights);

    struct Scores {
        double total = 0.0;
        std::vector<double> components; // in component order
    };
    Scores score(const task::Example &prompt, const task::Completion &answer) const;
    // Like score(), writing the component values into `components` (resized); returns the total.
    double score(const task::Example &prompt, const task::Completion &answer, std::vector<double> &components) const;
    // Scores many pairs at once, each component over the whole batch (Reward::scoreBatch):
    // components[i] gets pair i's values, the return value the totals. Judge decisions
    // go to `log` when given.
    std::vector<double> scoreBatch(const std::vector<const task::Example *> &examples,
                                   const std::vector<const task::Completion *> &completions,
                                   std::vector<std::vector<double>> &components, ScoreLog *log = nullptr) const;
    // The total for component values already computed (how the workbench re-weights
    // without re-scoring): None (kNone) when a component of weight > 0 is None.
    double combine(const std::vector<double> &componentValues) const;
    std::vector<Explanation> explain(const task::Example &prompt, const task::Completion &answer) const;
    // Reward::checkExample of every component of weight > 0 on every example; throws
    // data::InputException naming `source`, the component and the example.
    void checkExamples(const std::vector<const task::Example *> &examples, const std::string &source) const;

private:
    RewardConfig m_config;
    std::vector<std::unique_ptr<Reward>> m_components;
};

} // namespace rwb::reward
