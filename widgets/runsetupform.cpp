#include "runsetupform.h"

#include "workspace.h"

#include "data/jsonl.h"
#include "reward/registry.h"
#include "judge/judgeclient.h"
#include "judge/judgeconfig.h"
#include "reward/rewardconfig.h"
#include "train/grpo.h"
#include "task/catalog.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QEvent>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QGridLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QJsonDocument>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QPushButton>
#include <QSaveFile>
#include <QSignalBlocker>
#include <QScrollArea>
#include <QStyle>
#include <QTimer>
#include <QToolButton>
#include <QVBoxLayout>

#include <map>
#include <optional>
#include <cmath>

namespace rwb::widgets {

namespace {

enum class Kind { File, Folder, Model, Dataset, Text, Integer, Number, Boolean, Choice };

struct FieldSpec {
    const char *key;
    Kind kind;
    int group; // index into the group boxes
    std::initializer_list<const char *> choices = {};
};

// Groups, in the order they are shown.
enum Group { DataGroup, SamplingGroup, OptimizationGroup, LossGroup, EvaluationGroup, GroupCount };

// Every field of the form, in its order. Keys are GRPO config keys (docs/training.md).
const FieldSpec kFields[] = {
    {"model", Kind::Model, DataGroup},
    {"init_adapter", Kind::Folder, DataGroup},
    {"train_data", Kind::Dataset, DataGroup},
    {"eval_data", Kind::Dataset, DataGroup},
    {"reward_config", Kind::File, DataGroup},
    {"store", Kind::File, DataGroup},
    {"output", Kind::Folder, DataGroup},
    {"run_name", Kind::Text, DataGroup},
    {"retrieval_index", Kind::File, DataGroup},
    {"eval_retrieval_index", Kind::File, DataGroup},
    {"num_generations", Kind::Integer, SamplingGroup},
    {"prompts_per_step", Kind::Integer, SamplingGroup},
    {"temperature", Kind::Number, SamplingGroup},
    {"top_p", Kind::Number, SamplingGroup},
    {"top_k", Kind::Integer, SamplingGroup},
    {"max_completion_length", Kind::Integer, SamplingGroup},
    {"retrieval_top_k", Kind::Integer, SamplingGroup},
    {"max_turns", Kind::Integer, SamplingGroup},
    {"max_turn_tokens", Kind::Integer, SamplingGroup},
    {"dynamic_sampling", Kind::Boolean, SamplingGroup},
    {"max_sampling_rounds", Kind::Integer, SamplingGroup},
    {"lora", Kind::Boolean, OptimizationGroup},
    {"lora_r", Kind::Integer, OptimizationGroup},
    {"lora_alpha", Kind::Number, OptimizationGroup},
    {"lora_dropout", Kind::Number, OptimizationGroup},
    {"use_rslora", Kind::Boolean, OptimizationGroup},
    {"learning_rate", Kind::Number, OptimizationGroup},
    {"weight_decay", Kind::Number, OptimizationGroup},
    {"max_grad_norm", Kind::Number, OptimizationGroup},
    {"schedule", Kind::Choice, OptimizationGroup, {"constant_with_warmup", "cosine"}},
    {"warmup_ratio", Kind::Number, OptimizationGroup},
    {"max_steps", Kind::Integer, OptimizationGroup},
    {"micro_batch", Kind::Integer, OptimizationGroup},
    {"loss_type", Kind::Choice, LossGroup, {"grpo", "bnpo", "dr_grpo", "dapo"}},
    {"scale_rewards", Kind::Choice, LossGroup, {"group", "batch", "none"}},
    {"epsilon", Kind::Number, LossGroup},
    {"epsilon_high", Kind::Number, LossGroup},
    {"beta", Kind::Number, LossGroup},
    {"use_bias_correction_kl", Kind::Boolean, LossGroup},
    {"num_iterations", Kind::Integer, LossGroup},
    {"mask_truncated_completions", Kind::Boolean, LossGroup},
    {"none_rewards", Kind::Choice, LossGroup, {"skip", "zero", "stop"}},
    {"none_stop_fraction", Kind::Number, LossGroup},
    {"overlong_penalty", Kind::Boolean, LossGroup},
    {"overlong_cache", Kind::Integer, LossGroup},
    // Dual-granularity advantages (the fourth paper, eq. 8): a PRM's step rewards.
    {"prm", Kind::Folder, LossGroup},
    {"prm_beta", Kind::Number, LossGroup},
    {"prm_format_bonus", Kind::Number, LossGroup},
    {"prm_score", Kind::Choice, LossGroup, {"sigmoid", "raw"}},
    {"eval_every", Kind::Integer, EvaluationGroup},
    {"eval_limit", Kind::Integer, EvaluationGroup},
    {"eval_batch", Kind::Integer, EvaluationGroup},
    {"eval_max_completion_length", Kind::Integer, EvaluationGroup},
    {"checkpoint_every", Kind::Integer, EvaluationGroup},
    {"resume_from", Kind::Folder, EvaluationGroup},
    {"seed", Kind::Integer, EvaluationGroup},
    {"dtype", Kind::Choice, EvaluationGroup, {"float32", "bfloat16", "auto"}},
    {"precision", Kind::Choice, EvaluationGroup, {"auto", "bf16", "fp32"}},
    {"device", Kind::Choice, EvaluationGroup, {"auto", "cpu", "cuda"}},
    {"threads", Kind::Integer, EvaluationGroup},
    // Not a config key: `rwb grpo --nproc` (processes()).
    {"nproc", Kind::Integer, EvaluationGroup},
};

const FieldSpec *specOf(const QString &key)
{
    for (const FieldSpec &f : kFields)
        if (key == QLatin1String(f.key))
            return &f;
    return nullptr;
}

bool isPath(Kind k)
{
    return k == Kind::File || k == Kind::Folder || k == Kind::Model || k == Kind::Dataset;
}

// Keys the parser requires (a path each).
const char *const kRequiredPaths[] = {"model", "train_data", "reward_config", "store", "output"};

// GrpoConfig's defaults as JSON: the paper's table 4 values.
QJsonObject defaultsJson()
{
    static const QJsonObject d = [] {
        QJsonObject j = QJsonDocument::fromJson(QByteArray::fromStdString(train::toJson(train::GrpoConfig{}))).object();
        // The process rewards' keys, which the config writes only with a PRM, and the
        // form's own Processes.
        const train::GrpoConfig c;
        j.insert(QStringLiteral("prm_beta"), c.processBeta);
        j.insert(QStringLiteral("prm_format_bonus"), c.processFormatBonus);
        j.insert(QStringLiteral("prm_score"), c.processSigmoid ? QStringLiteral("sigmoid") : QStringLiteral("raw"));
        j.insert(QStringLiteral("nproc"), 1);
        return j;
    }();
    return d;
}

QString numberText(const QJsonValue &v, Kind kind)
{
    if (v.isString())
        return v.toString();
    if (!v.isDouble())
        return {};
    const double d = v.toDouble();
    if (kind == Kind::Integer && std::floor(d) == d && std::abs(d) < 9.0e15)
        return QString::number(static_cast<qint64>(d));
    return QLocale::c().toString(d, 'g', 12);
}

void restyle(QWidget *w)
{
    w->style()->unpolish(w);
    w->style()->polish(w);
    w->update();
}

} // namespace

struct RunSetupForm::Ui {
    QGroupBox *groups[GroupCount] = {};
    QGroupBox *judgeGroup = nullptr;
    QLabel *judge = nullptr;         // which judge the run calls
    QPushButton *editJudge = nullptr; // … set up in the Designer
    QGridLayout *grid = nullptr;
    int columns = 0;
    QPushButton *paper = nullptr;
    QPushButton *demo = nullptr;
    QHash<QString, QToolButton *> browse;
};

RunSetupForm::RunSetupForm(QWidget *parent) : QWidget(parent), m_ui(std::make_unique<Ui>())
{
    build();
    retranslate();
    m_validateTimer = new QTimer(this);
    m_validateTimer->setSingleShot(true);
    m_validateTimer->setInterval(100);
    connect(m_validateTimer, &QTimer::timeout, this, &RunSetupForm::runValidation);
    m_filling = true;
    setAll(defaultsJson());
    m_filling = false;
    runValidation();
}

RunSetupForm::~RunSetupForm() = default;

void RunSetupForm::arrangeGroups(int columns)
{
    if (columns == m_ui->columns)
        return;
    m_ui->columns = columns;
    QGridLayout *grid = m_ui->grid;
    for (QGroupBox *g : m_ui->groups)
        grid->removeWidget(g);
    grid->removeWidget(m_ui->judgeGroup);
    for (int c = 0; c < 3; ++c)
        grid->setColumnStretch(c, 0);
    for (int r = 0; r < GroupCount + 2; ++r)
        grid->setRowStretch(r, 0);
    if (columns >= 3) {
        // Data, the judge and sampling | optimization and loss | evaluation.
        grid->addWidget(m_ui->groups[DataGroup], 0, 0);
        grid->addWidget(m_ui->judgeGroup, 1, 0);
        grid->addWidget(m_ui->groups[SamplingGroup], 2, 0);
        grid->addWidget(m_ui->groups[OptimizationGroup], 0, 1);
        grid->addWidget(m_ui->groups[LossGroup], 1, 1, 2, 1);
        grid->addWidget(m_ui->groups[EvaluationGroup], 0, 2, 3, 1);
        grid->setRowStretch(3, 1);
        grid->setColumnStretch(0, 2);
        grid->setColumnStretch(1, 1);
        grid->setColumnStretch(2, 1);
    } else {
        QWidget *order[] = {m_ui->groups[DataGroup],         m_ui->judgeGroup,          m_ui->groups[SamplingGroup],
                            m_ui->groups[OptimizationGroup], m_ui->groups[LossGroup], m_ui->groups[EvaluationGroup]};
        int r = 0;
        for (QWidget *g : order)
            grid->addWidget(g, r++, 0);
        grid->setRowStretch(r, 1);
        grid->setColumnStretch(0, 1);
    }
}

void RunSetupForm::resizeEvent(QResizeEvent *event)
{
    QWidget::resizeEvent(event);
    arrangeGroups(width() < 900 ? 1 : 3);
}

void RunSetupForm::build()
{
    setStyleSheet(QStringLiteral("QLineEdit[invalid=\"true\"], QComboBox[invalid=\"true\"] {"
                                 " border: 2px solid #d32f2f; background: #fdecea; }"));
    auto *outer = new QVBoxLayout(this);
    auto *buttons = new QHBoxLayout;
    m_ui->paper = new QPushButton(this);
    m_ui->demo = new QPushButton(this);
    connect(m_ui->paper, &QPushButton::clicked, this, &RunSetupForm::applyPaperDefaults);
    connect(m_ui->demo, &QPushButton::clicked, this, &RunSetupForm::applyDemoPreset);
    buttons->addWidget(m_ui->paper);
    buttons->addWidget(m_ui->demo);
    buttons->addStretch(1);
    outer->addLayout(buttons);

    auto *scroll = new QScrollArea(this);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    auto *inner = new QWidget(scroll);
    auto *grid = new QGridLayout(inner);
    QFormLayout *forms[GroupCount] = {};
    for (int g = 0; g < GroupCount; ++g) {
        m_ui->groups[g] = new QGroupBox(inner);
        forms[g] = new QFormLayout(m_ui->groups[g]);
        // In a narrow dock a field goes under its label rather than out of sight.
        forms[g]->setRowWrapPolicy(QFormLayout::WrapLongRows);
        forms[g]->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    }
    m_ui->judgeGroup = new QGroupBox(inner);
    m_ui->judgeGroup->setObjectName(QStringLiteral("judgeGroup"));
    auto *judgeLayout = new QVBoxLayout(m_ui->judgeGroup);
    m_ui->judge = new QLabel(m_ui->judgeGroup);
    m_ui->judge->setObjectName(QStringLiteral("runJudge"));
    m_ui->judge->setWordWrap(true);
    m_ui->judge->setTextInteractionFlags(Qt::TextSelectableByMouse);
    judgeLayout->addWidget(m_ui->judge, 1);
    m_ui->editJudge = new QPushButton(m_ui->judgeGroup);
    m_ui->editJudge->setObjectName(QStringLiteral("editJudge"));
    judgeLayout->addWidget(m_ui->editJudge, 0, Qt::AlignLeft);
    connect(m_ui->editJudge, &QPushButton::clicked, this, &RunSetupForm::judgeEditRequested);
    m_ui->judgeGroup->hide();
    m_ui->grid = grid;
    arrangeGroups(3);
    scroll->setWidget(inner);
    outer->addWidget(scroll, 1);

    m_problems = new QLabel(this);
    m_problems->setWordWrap(true);
    m_problems->setStyleSheet(QStringLiteral("color: #c62828;"));
    m_problems->setTextInteractionFlags(Qt::TextSelectableByMouse);
    outer->addWidget(m_problems);

    for (const FieldSpec &f : kFields) {
        const QString key = QString::fromLatin1(f.key);
        QWidget *editor = nullptr;
        QWidget *row = nullptr;
        switch (f.kind) {
        case Kind::Boolean: {
            auto *box = new QCheckBox(inner);
            connect(box, &QCheckBox::toggled, this, &RunSetupForm::scheduleValidation);
            editor = box;
            break;
        }
        case Kind::Choice: {
            auto *combo = new QComboBox(inner);
            for (const char *c : f.choices)
                combo->addItem(QString::fromLatin1(c), QString::fromLatin1(c));
            connect(combo, &QComboBox::currentIndexChanged, this, &RunSetupForm::scheduleValidation);
            editor = combo;
            break;
        }
        case Kind::Model:
        case Kind::Dataset: {
            auto *combo = new QComboBox(inner);
            combo->setEditable(true);
            combo->setInsertPolicy(QComboBox::NoInsert);
            combo->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
            combo->setMinimumContentsLength(12); // a path is read whole in its tooltip
            connect(combo, &QComboBox::currentTextChanged, this, &RunSetupForm::scheduleValidation);
            editor = combo;
            break;
        }
        default: {
            auto *line = new QLineEdit(inner);
            connect(line, &QLineEdit::textChanged, this, &RunSetupForm::scheduleValidation);
            if (f.kind == Kind::Integer || f.kind == Kind::Number)
                line->setMaximumWidth(140);
            editor = line;
            break;
        }
        }
        editor->setObjectName(key);
        if (isPath(f.kind)) {
            row = new QWidget(inner);
            auto *h = new QHBoxLayout(row);
            h->setContentsMargins(0, 0, 0, 0);
            h->addWidget(editor, 1);
            auto *button = new QToolButton(row);
            button->setText(QStringLiteral("…"));
            h->addWidget(button);
            m_ui->browse.insert(key, button);
            const Kind kind = f.kind;
            connect(button, &QToolButton::clicked, this, [this, key, kind] {
                const QString start = value(key).toString().isEmpty() ? baseDir() : value(key).toString();
                const QString chosen =
                    (kind == Kind::Folder || kind == Kind::Model)
                        ? QFileDialog::getExistingDirectory(this, tr("Choose a folder"), start)
                        : QFileDialog::getSaveFileName(this, tr("Choose a file"), start, {}, nullptr,
                                                       QFileDialog::DontConfirmOverwrite);
                if (!chosen.isEmpty())
                    setValue(key, chosen);
            });
        }
        auto *label = new QLabel(inner);
        label->setBuddy(editor);
        m_labels.insert(key, label);
        m_editors.insert(key, editor);
        m_keys << key;
        forms[f.group]->addRow(label, row ? row : editor);
    }
}

void RunSetupForm::retranslate()
{
    m_ui->paper->setText(tr("Paper defaults"));
    m_ui->paper->setToolTip(tr("The first paper's table 4 values for everything but the paths and the run name"));
    m_ui->demo->setText(tr("Demo (tiny model)"));
    m_ui->demo->setToolTip(tr("The quick demo's GRPO values for the tiny model (scripts/demo.sh --quick), a run of a "
                              "few minutes on 2 cores: G 8, 16 prompts, 24 tokens, temperature 0.8, LoRA r 16, "
                              "learning rate 2e-3 on a cosine schedule, 60 steps, evaluation of 64 e-mails and a "
                              "checkpoint every 20. The full demo: 600 steps, 500 e-mails every 100. Train on e-mails "
                              "the SFT never saw: on its own, the model recalls memorised answers and the training "
                              "reward cannot rise"));
    m_ui->groups[DataGroup]->setTitle(tr("Data && model"));
    m_ui->groups[SamplingGroup]->setTitle(tr("Sampling"));
    m_ui->groups[OptimizationGroup]->setTitle(tr("Optimization"));
    m_ui->groups[LossGroup]->setTitle(tr("Loss"));
    m_ui->groups[EvaluationGroup]->setTitle(tr("Evaluation && checkpoints"));
    m_ui->judgeGroup->setTitle(tr("Judge (for the reward config's judge rewards)"));
    m_ui->editJudge->setText(tr("Edit in the Designer…"));
    m_ui->editJudge->setToolTip(tr("The judge is set up in the Reward Designer's judge settings"));
    if (m_editors.contains(QStringLiteral("reward_config")))
        showRewardField();

    // key → label, what it does.
    const QHash<QString, std::pair<QString, QString>> text = {
        {"model", {tr("Model"), tr("The policy's starting point: a model folder (e.g. the SFT output)")}},
        {"prm", {tr("Process reward model"), tr("Optional: a PRM folder (rwb prm train) for dual-granularity advantages: each step's advantage adds β times its standardised step reward (the fourth paper, eq. 8); a task whose completions are steps")}},
        {"prm_beta", {tr("Step reward weight β"), tr("β of eq. 8: how much the PRM's step rewards move each step's advantage (the paper: 0.3); used only with a process reward model")}},
        {"prm_format_bonus", {tr("Step format bonus"), tr("ν1 of eq. 5: added to a step's reward when it is well formed; used only with a process reward model")}},
        {"prm_score", {tr("Step score"), tr("sigmoid: σ(R), a probability; raw: the PRM's score R")}},
        {"nproc", {tr("Processes"), tr("Data-parallel processes on this machine (rwb grpo --nproc): each samples, scores and back-propagates its share of every step. More than 1 runs the training as rwb grpo in the background; the Designer's weights, Pause and Stop still reach it (through --control)")}},
        {"init_adapter", {tr("Initial adapter"), tr("Optional: a LoRA adapter (e.g. SFT's) merged into the model first")}},
        {"train_data", {tr("Training data"), tr("Extraction JSONL: the prompts")}},
        {"eval_data", {tr("Validation data"), tr("Optional: extraction JSONL scored with precision / recall / F1")}},
        {"reward_config", {tr("Reward config"), tr("The reward config JSON (the Designer's)")}},
        {"store", {tr("Run store"), tr("The SQLite run store; the workspace's runs.sqlite")}},
        {"output", {tr("Output folder"), tr("Checkpoints and the final adapter")}},
        {"run_name", {tr("Run name"), tr("Empty: the output folder's name")}},
        {"retrieval_index", {tr("Retrieval index"), tr("A multi-step task's index (rwb retrieve index): the model retrieves from it at every </subquery>; ignored by other tasks")}},
        {"eval_retrieval_index", {tr("Validation retrieval index"), tr("Optional: the index the validation questions are answered from, when they are about another knowledge base")}},
        {"num_generations", {tr("Generations per prompt (G)"), tr("Completions sampled for each prompt; one group")}},
        {"prompts_per_step", {tr("Prompts per step (B)"), tr("8 × 8 = the paper's 64 completions per step")}},
        {"temperature", {tr("Temperature"), tr("Sampling temperature")}},
        {"top_p", {tr("Top-p"), tr("Nucleus sampling: the smallest set of tokens with this much probability")}},
        {"top_k", {tr("Top-k"), tr("0: off")}},
        {"max_completion_length", {tr("Max completion tokens"), tr("A completion that reaches it is truncated")}},
        {"retrieval_top_k", {tr("Passages per retrieval"), tr("A multi-step task's retriever returns this many passages")}},
        {"max_turns", {tr("Max retrievals"), tr("Retrievals per completion at most; the next one ends it, truncated")}},
        {"max_turn_tokens", {tr("Max tokens per step"), tr("The model's tokens in one stretch at most (to the first retrieval, between two, after the last); more end the completion (0: no limit)")}},
        {"dynamic_sampling", {tr("Dynamic sampling"), tr("DAPO: drop groups whose rewards are all equal and sample more")}},
        {"max_sampling_rounds", {tr("Max sampling rounds"), tr("Generation rounds per step at most (dynamic sampling)")}},
        {"lora", {tr("LoRA"), tr("Train LoRA adapters; off: the whole model")}},
        {"lora_r", {tr("LoRA rank r"), tr("Rank of the adapters")}},
        {"lora_alpha", {tr("LoRA α"), tr("Scale α of the adapters (α / r multiplies their output)")}},
        {"lora_dropout", {tr("LoRA dropout"), tr("Dropout on the adapters' input")}},
        {"use_rslora", {tr("rsLoRA"), tr("Rank-stabilized LoRA: the adapters' output scaled by α / √r instead of α / r")}},
        {"learning_rate", {tr("Learning rate"), tr("AdamW's peak learning rate")}},
        {"weight_decay", {tr("Weight decay"), tr("AdamW's decoupled weight decay")}},
        {"max_grad_norm", {tr("Max gradient norm"), tr("Gradients are clipped to this norm (0: no clipping)")}},
        {"schedule", {tr("Schedule"), tr("Learning-rate schedule after the warm-up")}},
        {"warmup_ratio", {tr("Warm-up ratio"), tr("Share of the steps spent warming up")}},
        {"max_steps", {tr("Steps"), tr("Optimizer steps of the run")}},
        {"micro_batch", {tr("Micro-batch"), tr("Rows per forward / backward (memory, not maths); 0: 8 in fp32, 16 in bf16")}},
        {"loss_type", {tr("Loss"), tr("grpo, bnpo, dr_grpo or dapo (docs/grpo.md)")}},
        {"scale_rewards", {tr("Reward scaling"), tr("Advantages divided by the group's, the batch's or no standard deviation")}},
        {"epsilon", {tr("Clip ε (low)"), tr("The ratio is clipped to [1 − ε, 1 + ε_high]")}},
        {"epsilon_high", {tr("Clip ε (high)"), tr("DAPO's clip-higher; equal to ε when absent")}},
        {"beta", {tr("KL weight β"), tr("k3 KL against the reference (the model with adapters off); 0: none")}},
        {"num_iterations", {tr("Updates per batch (μ)"), tr("Policy updates per generation batch")}},
        {"use_bias_correction_kl", {tr("KL ratio-weighted"),
                                    tr("The KL term times the importance ratio: the unbiased KL gradient (TRL's default)")}},
        {"mask_truncated_completions", {tr("Mask truncated"), tr("Truncated completions get no gradient")}},
        {"none_rewards", {tr("No reward (grader failed)"),
                          tr("A completion whose grader failed (judge error, Python or remote reward error, timeout): "
                             "skip (left out of its group, advantage 0), zero (scored 0) or stop (stop the run when "
                             "too many fail)")}},
        {"none_stop_fraction", {tr("Stop above failed share"),
                                tr("With stop: the run stops when more than this share of a step's completions "
                                   "has no reward (0: any)")}},
        {"overlong_penalty", {tr("Over-long penalty"), tr("DAPO's soft punishment of completions near the limit")}},
        {"overlong_cache", {tr("Over-long cache"), tr("L_cache: tokens before the limit where the penalty starts")}},
        {"eval_every", {tr("Evaluate every"), tr("> 0: evaluate before training, every N steps and at the end (needs validation data)")}},
        {"eval_limit", {tr("Evaluation e-mails"), tr("Validation e-mails per evaluation")}},
        {"eval_batch", {tr("Evaluation batch"), tr("Prompts per generation call in evaluations")}},
        {"eval_max_completion_length", {tr("Evaluation max tokens"), tr("0: the max completion tokens")}},
        {"checkpoint_every", {tr("Checkpoint every"), tr("> 0: a checkpoint every N steps and at the end")}},
        {"resume_from", {tr("Resume from"), tr("A checkpoint folder: continue that run")}},
        {"seed", {tr("Seed"), tr("The same seed and config give the same run")}},
        {"dtype", {tr("Weights dtype"), tr("float32, bfloat16, or auto (the model's; bfloat16 weights compute in float32 where bf16 is slow)")}},
        {"precision", {tr("Precision"), tr("auto: bf16 autocast where this machine runs bf16 fast (AMX, or AVX512-BF16 when timed faster; a GPU), else fp32; or bf16 / fp32")}},
        {"device", {tr("Device"), tr("auto: CUDA when there is a GPU")}},
        {"threads", {tr("CPU threads"), tr("0: every core")}},
    };
    const QJsonObject defaults = defaultsJson();
    for (const QString &key : m_keys) {
        const auto t = text.value(key);
        m_labels[key]->setText(t.first);
        QString tip = QStringLiteral("<b>%1</b> — %2").arg(key, t.second.toHtmlEscaped());
        const FieldSpec *spec = specOf(key);
        if (defaults.contains(key) && !isPath(spec->kind)) {
            const QJsonValue d = defaults.value(key);
            const QString shown = d.isBool() ? (d.toBool() ? tr("on") : tr("off"))
                                             : d.isString() ? d.toString() : numberText(d, spec->kind);
            tip += QStringLiteral("<br>") + tr("Default (the paper's table 4): %1").arg(shown.toHtmlEscaped());
        }
        m_editors[key]->setProperty("rwbTip", tip);
        if (!m_invalid.contains(key))
            m_editors[key]->setToolTip(tip);
        m_labels[key]->setToolTip(tip);
    }
    for (QToolButton *b : std::as_const(m_ui->browse))
        b->setToolTip(tr("Browse…"));
}

void RunSetupForm::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslate();
    QWidget::changeEvent(event);
}

QWidget *RunSetupForm::fieldWidget(const QString &key) const
{
    return m_editors.value(key);
}

QStringList RunSetupForm::invalidFields() const
{
    return m_invalid;
}

void RunSetupForm::setValue(const QString &key, const QJsonValue &v)
{
    if (key == QLatin1String("reward_config")) {
        // A file, or the config itself (an inline object; the same one stays the Designer's).
        const bool same = m_rewardInline && v.isObject() && *m_rewardInline == v.toObject();
        m_rewardInline.reset();
        m_rewardFromDesigner = m_rewardFromDesigner && same;
        if (v.isObject())
            m_rewardInline = v.toObject();
        else if (auto *line = qobject_cast<QLineEdit *>(m_editors.value(key)))
            line->setText(v.toString());
        showRewardField();
        return;
    }
    QWidget *w = m_editors.value(key);
    const FieldSpec *spec = specOf(key);
    if (!w || !spec)
        return;
    if (auto *box = qobject_cast<QCheckBox *>(w)) {
        box->setChecked(v.toBool());
    } else if (auto *combo = qobject_cast<QComboBox *>(w)) {
        const QString text = v.isString() ? v.toString() : numberText(v, spec->kind);
        if (combo->isEditable()) {
            combo->setEditText(text);
        } else {
            int i = combo->findData(text);
            if (i < 0) { // a value the engine does not know: shown, and marked by validation
                combo->addItem(text, text);
                i = combo->count() - 1;
            }
            combo->setCurrentIndex(i);
        }
    } else if (auto *line = qobject_cast<QLineEdit *>(w)) {
        line->setText(isPath(spec->kind) || spec->kind == Kind::Text ? v.toString() : numberText(v, spec->kind));
    }
}

QJsonValue RunSetupForm::value(const QString &key) const
{
    if (key == QLatin1String("reward_config") && m_rewardInline)
        return *m_rewardInline;
    QWidget *w = m_editors.value(key);
    const FieldSpec *spec = specOf(key);
    if (!w || !spec)
        return QJsonValue(QJsonValue::Undefined);
    if (auto *box = qobject_cast<QCheckBox *>(w))
        return box->isChecked();
    QString text;
    if (auto *combo = qobject_cast<QComboBox *>(w))
        text = combo->isEditable() ? combo->currentText() : combo->currentData().toString();
    else if (auto *line = qobject_cast<QLineEdit *>(w))
        text = line->text();
    text = text.trimmed();
    if (isPath(spec->kind) || spec->kind == Kind::Text)
        return text.isEmpty() ? QJsonValue(QJsonValue::Undefined) : QJsonValue(text);
    if (spec->kind == Kind::Choice)
        return text;
    // A number: as JSON number when it reads as one; otherwise the text, which the
    // parser reports as "must be a number".
    bool ok = false;
    const double d = QLocale::c().toDouble(text, &ok);
    if (!ok)
        return text;
    if (std::floor(d) == d && std::abs(d) < 9.0e15)
        return static_cast<qint64>(d);
    return d;
}

int RunSetupForm::processes() const
{
    const QJsonValue v = value(QStringLiteral("nproc"));
    return v.isDouble() ? std::max(1, v.toInt()) : 1;
}

void RunSetupForm::setProcesses(int n)
{
    setValue(QStringLiteral("nproc"), std::max(1, n));
}

QJsonObject RunSetupForm::json() const
{
    QJsonObject j = m_hidden;
    for (const QString &key : m_keys) {
        if (key == QLatin1String("nproc")) // not the config's
            continue;
        const QJsonValue v = value(key);
        if (v.isUndefined())
            j.remove(key);
        else
            j.insert(key, v);
    }
    return j;
}

void RunSetupForm::setAll(const QJsonObject &json)
{
    const bool wasFilling = m_filling;
    m_filling = true;
    m_hidden = QJsonObject();
    for (auto it = json.begin(); it != json.end(); ++it)
        if (!m_editors.contains(it.key()))
            m_hidden.insert(it.key(), it.value());
    // A key the JSON lacks takes its default, as the parser would give it.
    const QJsonObject defaults = defaultsJson();
    for (const QString &key : m_keys)
        setValue(key, json.contains(key) ? json.value(key) : defaults.value(key));
    m_filling = wasFilling;
    if (!m_filling)
        runValidation();
}

void RunSetupForm::setConfig(const train::GrpoConfig &c)
{
    QJsonObject j = QJsonDocument::fromJson(QByteArray::fromStdString(train::toJson(c))).object();
    if (!c.resumeFrom.empty())
        j.insert(QStringLiteral("resume_from"), QString::fromStdString(c.resumeFrom));
    setAll(j);
}

train::GrpoConfig RunSetupForm::config() const
{
    const QByteArray bytes = QJsonDocument(json()).toJson(QJsonDocument::Compact);
    try {
        return train::parseGrpoConfig(bytes.toStdString(), QDir(baseDir()).filePath(QStringLiteral("grpo.json")).toStdString());
    } catch (const std::exception &) {
        return {};
    }
}

void RunSetupForm::setWorkspace(const Workspace &ws)
{
    m_workspaceDir = ws.dir();
    const bool wasFilling = m_filling;
    m_filling = true;
    auto fill = [this](const QString &key, const QStringList &items) {
        auto *combo = qobject_cast<QComboBox *>(m_editors.value(key));
        const QString current = combo->currentText();
        combo->clear();
        combo->addItems(items);
        combo->setEditText(current);
    };
    fill(QStringLiteral("model"), ws.models());
    fill(QStringLiteral("train_data"), ws.datasets());
    fill(QStringLiteral("eval_data"), ws.datasets());
    setValue(QStringLiteral("store"), ws.storePath());
    if (value(QStringLiteral("output")).isUndefined()) {
        const QString name = value(QStringLiteral("run_name")).toString();
        setValue(QStringLiteral("output"),
                 QDir(ws.dir()).filePath(QStringLiteral("runs/") + (name.isEmpty() ? QStringLiteral("grpo") : name)));
    }
    m_filling = wasFilling;
    runValidation();
}

void RunSetupForm::setRewardConfigPath(const QString &path)
{
    setValue(QStringLiteral("reward_config"), path);
    runValidation();
}

void RunSetupForm::setRewardConfig(const std::optional<reward::RewardConfig> &config)
{
    if (!config) {
        if (m_rewardInline)
            setValue(QStringLiteral("reward_config"), QString());
    } else {
        // Its paths absolute: the form resolves relative ones against the workspace.
        const std::string json = reward::toJson(reward::withAbsolutePaths(*config));
        setValue(QStringLiteral("reward_config"), QJsonDocument::fromJson(QByteArray::fromStdString(json)).object());
        m_rewardFromDesigner = true;
        showRewardField();
    }
    runValidation();
}

void RunSetupForm::showRewardField()
{
    auto *line = qobject_cast<QLineEdit *>(m_editors.value(QStringLiteral("reward_config")));
    QToolButton *browse = m_ui->browse.value(QStringLiteral("reward_config"));
    if (!line)
        return;
    if (browse)
        browse->setEnabled(!m_rewardInline);
    line->setReadOnly(m_rewardInline.has_value());
    if (!m_rewardInline)
        return;
    const QString name = m_rewardInline->value(QStringLiteral("name")).toString();
    const QSignalBlocker quiet(line);
    line->setText(m_rewardFromDesigner
                      ? (name.isEmpty() ? tr("the Reward Designer's (not saved to a file)") : tr("%1, as in the Reward Designer").arg(name))
                      : (name.isEmpty() ? tr("written in the config (no file)") : tr("%1, written in the config (no file)").arg(name)));
    line->setCursorPosition(0);
}

void RunSetupForm::applyPaperDefaults()
{
    QJsonObject j = defaultsJson();
    const QJsonObject current = json();
    for (const char *key : {"model", "init_adapter", "train_data", "eval_data", "reward_config", "store", "output",
                            "run_name", "resume_from", "retrieval_index", "eval_retrieval_index"}) {
        j.remove(QLatin1String(key));
        if (current.contains(QLatin1String(key)))
            j.insert(QLatin1String(key), current.value(QLatin1String(key)));
    }
    setAll(j);
}

void RunSetupForm::applyDemoPreset()
{
    m_filling = true;
    applyPaperDefaults();
    // scripts/demo.sh --quick's grpo.json: a short run (about a minute of GRPO on 2 cores
    // with the quick demo's model, a few minutes with the full demo's); the full demo's
    // 600 steps are "Steps" 600, "Evaluate every" 100 and 500 evaluation e-mails.
    setValue(QStringLiteral("num_generations"), 8);
    setValue(QStringLiteral("prompts_per_step"), 16);
    setValue(QStringLiteral("max_completion_length"), 24);
    setValue(QStringLiteral("temperature"), 0.8);
    setValue(QStringLiteral("learning_rate"), 0.002);
    setValue(QStringLiteral("schedule"), QStringLiteral("cosine"));
    setValue(QStringLiteral("warmup_ratio"), 0.03);
    setValue(QStringLiteral("lora_r"), 16);
    setValue(QStringLiteral("max_steps"), 60);
    setValue(QStringLiteral("eval_every"), 20);
    setValue(QStringLiteral("eval_limit"), 64);
    setValue(QStringLiteral("checkpoint_every"), 20);
    setValue(QStringLiteral("seed"), 1);
    m_filling = false;
    runValidation();
}

bool RunSetupForm::loadFile(const QString &path, QString *error)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) {
        if (error)
            *error = tr("%1: cannot read (%2)").arg(path, f.errorString());
        return false;
    }
    QJsonParseError pe;
    const QJsonDocument doc = QJsonDocument::fromJson(f.readAll(), &pe);
    if (pe.error != QJsonParseError::NoError || !doc.isObject()) {
        if (error)
            *error = tr("%1: not a JSON object (%2)").arg(path, pe.errorString());
        return false;
    }
    // Relative paths in the file are relative to its folder: make them absolute.
    QJsonObject j = doc.object();
    const QDir dir = QFileInfo(path).absoluteDir();
    for (auto it = j.begin(); it != j.end(); ++it) {
        const FieldSpec *spec = specOf(it.key());
        if (spec && isPath(spec->kind) && it.value().isString() && !it.value().toString().isEmpty())
            *it = QDir::cleanPath(dir.absoluteFilePath(it.value().toString()));
    }
    setAll(j);
    return true;
}

bool RunSetupForm::saveFile(const QString &path, QString *error) const
{
    QSaveFile f(path);
    if (!f.open(QIODevice::WriteOnly) || f.write(QJsonDocument(json()).toJson(QJsonDocument::Indented)) < 0 ||
        !f.commit()) {
        if (error)
            *error = tr("%1: cannot write (%2)").arg(path, f.errorString());
        return false;
    }
    return true;
}

QString RunSetupForm::baseDir() const
{
    return m_workspaceDir.isEmpty() ? QDir::currentPath() : m_workspaceDir;
}

QStringList RunSetupForm::check(QJsonObject json, QStringList *fields, std::optional<reward::RewardConfig> *reward) const
{
    const QJsonObject original = json;
    const QJsonObject defaults = defaultsJson();
    std::optional<train::GrpoConfig> parsed; // the last parse that passed: its paths, resolved as the trainer will
    const std::string source = QDir(baseDir()).filePath(QStringLiteral("grpo.json")).toStdString();
    QStringList problems;
    // The parser stops at the first problem: note it, put that field back to its default
    // (a stand-in for a required path) and parse again, until it passes.
    for (int round = 0; round < 64; ++round) {
        try {
            parsed = train::parseGrpoConfig(QJsonDocument(json).toJson(QJsonDocument::Compact).toStdString(), source);
            break;
        } catch (const data::InputException &e) {
            QString reason = QString::fromStdString(e.error().reason);
            // A problem inside an inline reward config is the reward_config field's.
            if (QString::fromStdString(e.error().file).endsWith(QLatin1String(": reward_config")))
                reason = QStringLiteral("reward_config: ") + reason;
            const QString field = reason.section(QStringLiteral(": "), 0, 0);
            problems << reason;
            if (!m_editors.contains(field) || fields->contains(field))
                break;
            *fields << field;
            bool required = false;
            for (const char *k : kRequiredPaths)
                required = required || field == QLatin1String(k);
            if (required)
                json.insert(field, QStringLiteral("unset"));
            else if (defaults.contains(field))
                json.insert(field, defaults.value(field));
            else
                json.remove(field);
        } catch (const std::exception &e) {
            problems << QString::fromStdString(e.what());
            break;
        }
    }
    // What the parser does not look at: an inline reward config against the catalog, and
    // the files must be there.
    if (!parsed)
        return problems;
    // The reward config as the trainer will read it: the value, or the file (read at each
    // validation: its author may rewrite it; a file that does not read fails the run's
    // start with its own message).
    if (parsed->reward) {
        try {
            *reward = train::rewardConfigOf(*parsed, task::Catalog::builtin().rewards());
        } catch (const data::InputException &e) {
            problems << QStringLiteral("reward_config: ") + QString::fromStdString(e.error().reason);
            *fields << QStringLiteral("reward_config");
        }
    } else if (QFileInfo(QString::fromStdString(parsed->rewardConfig)).isFile()) {
        try {
            *reward = train::rewardConfigOf(*parsed, task::Catalog::builtin().rewards());
        } catch (const std::exception &) {
        }
    }
    const std::map<QString, std::string> paths{
        {QStringLiteral("model"), parsed->model},           {QStringLiteral("train_data"), parsed->trainData},
        {QStringLiteral("eval_data"), parsed->evalData},     {QStringLiteral("reward_config"), parsed->rewardConfig},
        {QStringLiteral("init_adapter"), parsed->initAdapter}, {QStringLiteral("resume_from"), parsed->resumeFrom},
        {QStringLiteral("retrieval_index"), parsed->environment.index},
        {QStringLiteral("eval_retrieval_index"), parsed->evalRetrievalIndex}};
    auto resolved = [&](const char *key) { return QString::fromStdString(paths.at(QLatin1String(key))); };
    auto fresh = [&](const char *key) {
        return original.value(QLatin1String(key)).isString() && !fields->contains(QLatin1String(key));
    };
    if (fresh("model")) {
        const QString message = checkModelFolder(resolved("model"));
        if (!message.isEmpty()) {
            problems << QStringLiteral("model: ") + message;
            *fields << QStringLiteral("model");
        }
    }
    for (const char *key : {"train_data", "eval_data", "reward_config", "retrieval_index", "eval_retrieval_index"})
        if (fresh(key) && !QFileInfo(resolved(key)).isFile()) {
            problems << QStringLiteral("%1: %2").arg(QLatin1String(key), tr("%1: no such file").arg(resolved(key)));
            *fields << QLatin1String(key);
        }
    if (fresh("prm") && !QFileInfo(QDir(QString::fromStdString(parsed->processRewardModel)).filePath(QStringLiteral("prm.json"))).isFile()) {
        problems << QStringLiteral("prm: ") + tr("%1: not a process reward model folder (no prm.json; rwb prm train writes one)")
                                                 .arg(QString::fromStdString(parsed->processRewardModel));
        *fields << QStringLiteral("prm");
    }
    for (const char *key : {"init_adapter", "resume_from"})
        if (fresh(key) && !QFileInfo(resolved(key)).isDir()) {
            problems << QStringLiteral("%1: %2").arg(QLatin1String(key), tr("%1: no such folder").arg(resolved(key)));
            *fields << QLatin1String(key);
        }
    return problems;
}

QStringList RunSetupForm::checkJudge(const std::optional<reward::RewardConfig> &config)
{
    bool needs = false;
    if (config)
        for (const reward::RewardComponent &c : config->components)
            if (const auto *entry = task::Catalog::builtin().rewards().find(c.reward); entry && entry->needsJudge)
                needs = true;
    m_needsJudge = needs;
    m_ui->judgeGroup->setVisible(needs);
    m_judgeSummary.clear();
    if (!needs) {
        m_ui->judge->clear();
        return {};
    }
    QStringList problems;
    if (config->judge.empty()) {
        problems << tr("judge: the reward config has a judge reward (coverage, rubric_explicit, …): set up its judge in "
                       "the Reward Designer");
        m_judgeSummary = tr("No judge is set up.");
    } else {
        try {
            const judge::JudgeOptions o = judge::parseJudgeOptions(config->judge, "judge", config->baseDir);
            m_judgeSummary = o.backend == "local"
                                 ? tr("The local model %1, in this process.").arg(QString::fromStdString(o.folder))
                                 : tr("%1 at %2, %3 calls at a time.")
                                       .arg(o.model.empty() ? tr("The server's model") : QString::fromStdString(o.model),
                                            QString::fromStdString(o.server.url))
                                       .arg(o.concurrency);
        } catch (const data::InputException &e) {
            problems << QString::fromStdString(e.error().reason);
            m_judgeSummary = QString::fromStdString(e.error().reason);
        } catch (const std::exception &e) {
            problems << QString::fromStdString(e.what());
            m_judgeSummary = QString::fromStdString(e.what());
        }
    }
    m_ui->judge->setText(m_judgeSummary);
    return problems;
}

QString RunSetupForm::judgeSummary() const
{
    return m_judgeSummary;
}

bool RunSetupForm::validate(QStringList *problems) const
{
    QStringList fields;
    std::optional<reward::RewardConfig> reward;
    QStringList p = check(json(), &fields, &reward);
    p += const_cast<RunSetupForm *>(this)->checkJudge(reward);
    if (problems)
        *problems = p;
    const_cast<RunSetupForm *>(this)->mark(fields, p);
    return p.isEmpty();
}

void RunSetupForm::mark(const QStringList &fields, const QStringList &problems)
{
    m_invalid = fields;
    for (const QString &key : m_keys) {
        QWidget *w = m_editors[key];
        const bool bad = fields.contains(key);
        QString message;
        for (const QString &p : problems)
            if (p.startsWith(key + QStringLiteral(": ")))
                message = p;
        if (w->property("invalid").toBool() != bad) {
            w->setProperty("invalid", bad);
            restyle(w);
        }
        // A path, whole in the tooltip: the field shows its end in a narrow dock.
        QString tip = w->property("rwbTip").toString();
        if (const QJsonValue v = value(key); isPath(specOf(key)->kind) && v.isString() && !v.toString().isEmpty())
            tip += QStringLiteral("<br><code>%1</code>").arg(v.toString().toHtmlEscaped());
        w->setToolTip(bad ? message.toHtmlEscaped() : tip);
    }
    m_problems->setText(problems.join(QLatin1Char('\n')));
    m_problems->setVisible(!problems.isEmpty());
    const bool ok = problems.isEmpty();
    if (ok != m_lastValid) {
        m_lastValid = ok;
        Q_EMIT validityChanged(ok);
    }
}

void RunSetupForm::scheduleValidation()
{
    if (!m_filling)
        m_validateTimer->start();
}

void RunSetupForm::runValidation()
{
    m_validateTimer->stop();
    validate(nullptr);
}

} // namespace rwb::widgets
