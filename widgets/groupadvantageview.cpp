#include "groupadvantageview.h"

#include "colourscale.h"
#include "groupadvantagemodel.h"
#include "rewardvalue.h"
#include "store/runstore.h"

#include <QApplication>
#include <QCheckBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QKeyEvent>
#include <QLabel>
#include <QPainter>
#include <QSignalBlocker>
#include <QSlider>
#include <QSpinBox>
#include <QStyle>
#include <QStyledItemDelegate>
#include <QTableView>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>
#include <exception>

namespace rwb::widgets {

namespace {
// An advantage of this size (in group standard deviations) gets the scale's full colour.
constexpr double kFullAdvantage = 2.0;
// Width of a sample cell: room for the bar and "0.80 (+1.16)". Narrower when G samples
// need it (the reward alone then, the advantage in the colour and the tooltip), down to
// the width of "0.80"; below that the table scrolls.
constexpr int kSampleColumnWidth = 100;
// The least the Prompt and Gold columns keep when the samples take the room.
constexpr int kMinPromptWidth = 100;
constexpr int kMinGoldWidth = 80;
// … and the most Gold takes.
constexpr int kMaxGoldWidth = 140;
// Height of the reward strip under a sample's numbers; rows are tall enough for both.
constexpr int kStripHeight = 8;
constexpr int kRowHeight = 36;
} // namespace

// Draws the sample cells as bars (length: the reward on the step's reward axis; colour:
// the advantage) with the group's mean as a tick and ±std as a band, greys the rows of
// flat groups, and puts a warning icon before their "all equal".
class SampleBarDelegate : public QStyledItemDelegate {
public:
    using QStyledItemDelegate::QStyledItemDelegate;
    // The reward axis of the step shown: [low, high], containing 0 and 1.
    double low = 0.0, high = 1.0;

    void paint(QPainter *painter, const QStyleOptionViewItem &option, const QModelIndex &index) const override
    {
        const QAbstractItemModel *m = index.model();
        const bool flat = m->index(index.row(), GroupAdvantageModel::FlatColumn).data(GroupAdvantageModel::ValueRole).toBool();
        QStyleOptionViewItem opt = option;
        initStyleOption(&opt, index);
        if (flat) {
            painter->fillRect(opt.rect, opt.palette.color(QPalette::Disabled, QPalette::Window));
            opt.palette.setColor(QPalette::Text, opt.palette.color(QPalette::Disabled, QPalette::Text));
        }
        if (index.column() == GroupAdvantageModel::FlatColumn && flat) {
            opt.icon = opt.widget ? opt.widget->style()->standardIcon(QStyle::SP_MessageBoxWarning)
                                  : QApplication::style()->standardIcon(QStyle::SP_MessageBoxWarning);
            opt.features |= QStyleOptionViewItem::HasDecoration;
            opt.decorationSize = QSize(14, 14);
        }
        if (index.column() < GroupAdvantageModel::FirstSampleColumn || !index.data(GroupAdvantageModel::RolloutIdRole).isValid()) {
            if (flat)
                opt.backgroundBrush = Qt::NoBrush;
            const QWidget *w = opt.widget;
            (w ? w->style() : QApplication::style())->drawControl(QStyle::CE_ItemViewItem, &opt, painter, w);
            return;
        }
        painter->save();
        if (opt.state & QStyle::State_Selected)
            painter->fillRect(opt.rect, opt.palette.color(QPalette::Highlight).lighter(170));
        // Two lines: the numbers, then the strip with the bar on the step's reward axis.
        QFont f = opt.font;
        f.setPointSizeF(f.pointSizeF() * 0.9);
        const QFontMetrics fm(f);
        const QRect textRect(opt.rect.left() + 4, opt.rect.top() + 2, opt.rect.width() - 8, fm.height());
        const QRect strip(opt.rect.left() + 4, textRect.bottom() + 3, opt.rect.width() - 8, kStripHeight);
        auto x = [&](double v) {
            const double t = (std::clamp(v, low, high) - low) / std::max(1e-12, high - low);
            return strip.left() + t * strip.width();
        };
        const double reward = index.data(GroupAdvantageModel::ValueRole).toDouble();
        const double advantage = index.data(GroupAdvantageModel::AdvantageRole).toDouble();
        const double mean = m->index(index.row(), GroupAdvantageModel::MeanColumn).data(GroupAdvantageModel::ValueRole).toDouble();
        const double sd = m->index(index.row(), GroupAdvantageModel::StdColumn).data(GroupAdvantageModel::ValueRole).toDouble();
        // The axis, the ±std band, the bar from 0 to the reward, the mean as a tick. A None
        // reward has no bar (a dashed outline says so) and a group without rewards no mean.
        painter->fillRect(strip, QColor(0, 0, 0, 12));
        const bool hasMean = !std::isnan(mean);
        if (!flat && hasMean)
            painter->fillRect(QRectF(QPointF(x(mean - sd), strip.top()), QPointF(x(mean + sd), strip.bottom() + 1)),
                              QColor(0, 0, 0, 28));
        if (std::isnan(reward)) {
            painter->setPen(QPen(QColor(0, 0, 0, 110), 1.0, Qt::DashLine));
            painter->drawRect(QRectF(strip).adjusted(0.5, 0.5, -0.5, -0.5));
        } else {
            const QColor bar = flat ? QColor(185, 185, 185) : divergingColour(advantage / kFullAdvantage);
            const QRectF barRect(QPointF(std::min(x(0.0), x(reward)), strip.top()),
                                 QPointF(std::max(x(0.0), x(reward)), strip.bottom() + 1));
            painter->fillRect(barRect, bar);
            painter->setPen(QPen(QColor(0, 0, 0, 110), 1.0));
            painter->drawRect(barRect.adjusted(0.5, 0.5, -0.5, -0.5));
        }
        if (hasMean) {
            painter->setPen(QPen(QColor(30, 30, 30), 2.0));
            painter->drawLine(QPointF(x(mean), strip.top() - 2), QPointF(x(mean), strip.bottom() + 3));
        }
        painter->setFont(f);
        painter->setPen(opt.palette.color(QPalette::Text));
        QString text = index.data(Qt::DisplayRole).toString();
        if (fm.horizontalAdvance(text) > textRect.width()) // a narrow cell: the reward alone
            text = RewardValue::format(reward, 2);
        painter->drawText(textRect, Qt::AlignRight | Qt::AlignVCenter, text);
        painter->restore();
    }

    QSize sizeHint(const QStyleOptionViewItem &option, const QModelIndex &index) const override
    {
        QSize s = QStyledItemDelegate::sizeHint(option, index);
        if (index.column() >= GroupAdvantageModel::FirstSampleColumn)
            s.setWidth(std::max(s.width(), kSampleColumnWidth));
        s.setHeight(std::max(s.height(), kRowHeight));
        return s;
    }
};

GroupAdvantageView::GroupAdvantageView(QWidget *parent)
    : QWidget(parent), m_model(new GroupAdvantageModel(this)), m_delegate(new SampleBarDelegate(this)),
      m_table(new QTableView(this)), m_spin(new QSpinBox(this)), m_slider(new QSlider(Qt::Horizontal, this)),
      m_follow(new QCheckBox(this)), m_summary(new QLabel(this)), m_stepLabel(new QLabel(this)), m_key(new QLabel(this))
{
    auto *chooser = new QHBoxLayout;
    m_stepLabel->setBuddy(m_spin);
    chooser->addWidget(m_stepLabel);
    chooser->addWidget(m_spin);
    chooser->addWidget(m_slider, 1);
    chooser->addWidget(m_follow);
    m_follow->setChecked(true);
    m_summary->setTextFormat(Qt::PlainText);
    m_summary->setWordWrap(true);
    m_key->setWordWrap(true);
    m_key->setTextFormat(Qt::PlainText);
    m_key->setForegroundRole(QPalette::PlaceholderText); // secondary text

    m_table->setModel(m_model);
    m_table->setItemDelegate(m_delegate);
    m_table->verticalHeader()->hide();
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->setSelectionBehavior(QAbstractItemView::SelectItems);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setMouseTracking(true);
    m_table->setWordWrap(false); // the prompt on one line, elided (whole in its tooltip)
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
    m_table->verticalHeader()->setDefaultSectionSize(kRowHeight);

    auto *layout = new QVBoxLayout(this);
    layout->addLayout(chooser);
    layout->addWidget(m_summary);
    layout->addWidget(m_key);
    layout->addWidget(m_table, 1);

    // Choosing a step other than the latest stops following (showStep does).
    connect(m_spin, &QSpinBox::valueChanged, this, &GroupAdvantageView::showStep);
    connect(m_slider, &QSlider::valueChanged, this, &GroupAdvantageView::showStep);
    connect(m_follow, &QCheckBox::toggled, this, [this](bool on) {
        if (on && m_store && m_lastStep >= 0 && step() != m_lastStep)
            showStep(m_lastStep);
    });
    connect(m_table, &QTableView::clicked, this, &GroupAdvantageView::sampleClicked);
    m_table->installEventFilter(this);
    m_table->viewport()->installEventFilter(this); // its resizes fit the columns again
    // A pointing hand over the samples: they open on a click.
    connect(m_table, &QTableView::entered, this, [this](const QModelIndex &index) {
        const bool sample = index.column() >= GroupAdvantageModel::FirstSampleColumn &&
                            index.data(GroupAdvantageModel::RolloutIdRole).isValid();
        m_table->viewport()->setCursor(sample ? Qt::PointingHandCursor : Qt::ArrowCursor);
    });
    retranslate();
    close();
}

GroupAdvantageView::~GroupAdvantageView() = default;

void GroupAdvantageView::retranslate()
{
    m_stepLabel->setText(tr("Step"));
    m_follow->setText(tr("Follow latest"));
    m_spin->setToolTip(tr("The GRPO step whose groups are shown"));
    m_slider->setToolTip(m_spin->toolTip());
    m_follow->setToolTip(tr("Show each new step as training writes it"));
    m_key->setText(tr("Each sample: its reward and advantage; the bar is the reward on the step's reward "
                      "axis, blue for a positive advantage, red for a negative one; the black tick is the "
                      "group's mean, the grey band its ±std. Click a sample to open it."));
}

void GroupAdvantageView::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::LanguageChange) {
        retranslate();
        updateSummary();
        // The model's headers and tooltips are translated as they are asked for.
        if (const int columns = m_model->columnCount(); columns > 0)
            Q_EMIT m_model->headerDataChanged(Qt::Horizontal, 0, columns - 1);
        m_table->viewport()->update();
    }
    QWidget::changeEvent(event);
}

bool GroupAdvantageView::setSession(RunSession *session, QString *error)
{
    close();
    if (!session)
        return true;
    try {
        const store::RunInfo &info = session->info();
        const int64_t stored = session->store().firstStep(session->runId());
        m_firstStep = std::max<qint64>(0, stored >= 0 ? stored : info.lastStep);
        m_lastStep = info.lastStep;
    } catch (const std::exception &e) {
        if (error)
            *error = tr("Cannot open run %1 of %2: %3")
                         .arg(session->runId())
                         .arg(session->storePath(), QString::fromUtf8(e.what()));
        m_firstStep = 0;
        m_lastStep = -1;
        return false;
    }
    m_session = session;
    m_store = &session->store();
    m_runId = session->runId();
    connect(session, &RunSession::stepAdded, this, [this](const TrainingStep &step) { stepWritten(step.step); });
    connect(session, &QObject::destroyed, this, [this] { close(); });
    setEnabled(true);
    updateRange();
    if (m_lastStep >= 0)
        load(m_lastStep);
    else
        updateSummary();
    return true;
}

void GroupAdvantageView::close()
{
    if (m_session)
        disconnect(m_session, nullptr, this, nullptr);
    m_session = nullptr;
    m_store = nullptr;
    m_runId = 0;
    m_firstStep = 0;
    m_lastStep = -1;
    m_loadError.clear();
    m_model->clear();
    updateRange();
    updateSummary();
}

qint64 GroupAdvantageView::step() const { return m_model->step(); }

bool GroupAdvantageView::followLatest() const { return m_follow->isChecked(); }

void GroupAdvantageView::setFollowLatest(bool follow) { m_follow->setChecked(follow); }

QString GroupAdvantageView::summaryText() const { return m_summary->text(); }

void GroupAdvantageView::showStep(qint64 step)
{
    if (!m_store)
        return;
    if (step != m_lastStep && followLatest()) {
        const QSignalBlocker block(m_follow);
        m_follow->setChecked(false);
    }
    if (step == this->step() && m_loadError.isEmpty())
        return;
    load(step);
}

void GroupAdvantageView::stepWritten(qint64 step)
{
    if (!m_store)
        return;
    if (step > m_lastStep) {
        m_firstStep = m_lastStep < 0 ? step : std::min(m_firstStep, step); // the run's first step
        m_lastStep = step;
        updateRange();
    }
    // The latest step again (a resumed run rewrites it): read it again when following.
    if (followLatest() && step == m_lastStep)
        load(step);
}

void GroupAdvantageView::load(qint64 step)
{
    const qint64 before = this->step();
    m_loadError.clear();
    try {
        m_model->load(*m_store, m_runId, step);
    } catch (const std::exception &e) {
        m_loadError = tr("Cannot read step %1: %2").arg(step).arg(QString::fromUtf8(e.what()));
        m_model->clear();
    }
    // The reward axis: 0 … 1, widened to whatever rewards the step has.
    const GroupAdvantageModel::RewardStats rewards = m_model->rewardStats();
    m_delegate->low = rewards.count > 0 ? std::min(0.0, rewards.min) : 0.0;
    m_delegate->high = rewards.count > 0 ? std::max(1.0, rewards.max) : 1.0;
    {
        const QSignalBlocker a(m_spin), b(m_slider);
        if (step > m_spin->maximum()) {
            m_spin->setMaximum(static_cast<int>(step));
            m_slider->setMaximum(static_cast<int>(step));
        }
        m_spin->setValue(static_cast<int>(step));
        m_slider->setValue(static_cast<int>(step));
    }
    fitColumns();
    updateSummary();
    if (step != before)
        Q_EMIT stepChanged(step);
}

void GroupAdvantageView::fitColumns()
{
    if (m_model->columnCount() == 0)
        return;
    m_table->resizeColumnToContents(GroupAdvantageModel::GroupColumn);
    m_table->resizeColumnToContents(GroupAdvantageModel::MeanColumn);
    m_table->resizeColumnToContents(GroupAdvantageModel::StdColumn);
    m_table->setColumnWidth(GroupAdvantageModel::FlatColumn,
                            std::max(90, m_table->horizontalHeader()->sectionSizeHint(GroupAdvantageModel::FlatColumn)));
    const int fixed = m_table->columnWidth(GroupAdvantageModel::GroupColumn) +
                      m_table->columnWidth(GroupAdvantageModel::MeanColumn) +
                      m_table->columnWidth(GroupAdvantageModel::StdColumn) +
                      m_table->columnWidth(GroupAdvantageModel::FlatColumn);
    // (sizeHintForColumn is public in QAbstractItemView, protected in QTableView.)
    const int goldHint = static_cast<const QAbstractItemView *>(m_table)->sizeHintForColumn(GroupAdvantageModel::GoldColumn);
    const int goldWanted = std::clamp(goldHint, kMinGoldWidth, kMaxGoldWidth);
    // Every sample on screen first, as wide as the room allows (up to its full width), then
    // Gold and Prompt share what is left; when even the narrowest samples do not fit, the
    // table scrolls sideways.
    const int g = m_model->groupSize();
    QFont small = m_table->font();
    small.setPointSizeF(small.pointSizeF() * 0.9); // the delegate's
    const int narrowest = QFontMetrics(small).horizontalAdvance(QStringLiteral("-0.00")) + 14;
    const int room = m_table->viewport()->width() - fixed;
    const int sample =
        g > 0 ? std::clamp((room - kMinGoldWidth - kMinPromptWidth) / g, narrowest, kSampleColumnWidth) : kSampleColumnWidth;
    const int left = room - g * sample;
    const int gold = std::clamp(left - kMinPromptWidth, kMinGoldWidth, goldWanted);
    for (int col = GroupAdvantageModel::FirstSampleColumn; col < m_model->columnCount(); ++col)
        m_table->setColumnWidth(col, sample);
    m_table->setColumnWidth(GroupAdvantageModel::GoldColumn, gold);
    m_table->setColumnWidth(GroupAdvantageModel::PromptColumn, std::max(kMinPromptWidth, left - gold));
}

void GroupAdvantageView::updateRange()
{
    const QSignalBlocker a(m_spin), b(m_slider);
    const bool any = m_store && m_lastStep >= 0;
    const int lo = any ? static_cast<int>(m_firstStep) : 0;
    const int hi = any ? static_cast<int>(m_lastStep) : 0;
    m_spin->setRange(lo, std::max(hi, static_cast<int>(std::max<qint64>(step(), lo))));
    m_slider->setRange(m_spin->minimum(), m_spin->maximum());
    m_spin->setEnabled(any);
    m_slider->setEnabled(any);
}

void GroupAdvantageView::updateSummary()
{
    if (!m_store) {
        m_summary->setText(tr("No run open."));
        return;
    }
    if (!m_loadError.isEmpty()) {
        m_summary->setText(m_loadError);
        return;
    }
    const int groups = m_model->rowCount();
    if (groups == 0) {
        m_summary->setText(m_lastStep < 0 ? tr("No step written yet.")
                                          : tr("Step %1 has no rollouts (an evaluation step or not written).").arg(step()));
        return;
    }
    const GroupAdvantageModel::RewardStats rewards = m_model->rewardStats();
    const int flat = m_model->flatGroups();
    QString text = tr("Step %1: G = %2, %n group(s), mean reward %3.", nullptr, groups)
                       .arg(step())
                       .arg(m_model->groupSize())
                       .arg(RewardValue::format(rewards.count > 0 ? rewards.mean : std::nan(""), 3));
    if (rewards.none > 0)
        text += QLatin1Char(' ') + (rewards.none == 1 ? tr("1 None reward (a judge gave no verdict) left out of the means.")
                                                      : tr("%1 None rewards (a judge gave no verdict) left out of the means.")
                                                            .arg(rewards.none));
    text += QLatin1Char(' ');
    text += flat > 0 ? tr("%1 of %2 groups all equal — they teach nothing.").arg(flat).arg(groups)
                     : tr("No group is all equal.");
    m_summary->setText(text);
}

bool GroupAdvantageView::eventFilter(QObject *watched, QEvent *event)
{
    if (watched == m_table->viewport() && event->type() == QEvent::Resize)
        fitColumns();
    if (watched == m_table && event->type() == QEvent::KeyPress) {
        const int key = static_cast<QKeyEvent *>(event)->key();
        if ((key == Qt::Key_Return || key == Qt::Key_Enter) && m_table->currentIndex().isValid()) {
            sampleClicked(m_table->currentIndex());
            return true;
        }
    }
    return QWidget::eventFilter(watched, event);
}

void GroupAdvantageView::sampleClicked(const QModelIndex &index)
{
    if (!index.isValid() || index.column() < GroupAdvantageModel::FirstSampleColumn)
        return;
    const QVariant id = index.data(GroupAdvantageModel::RolloutIdRole);
    if (id.isValid())
        Q_EMIT rolloutActivated(id.toLongLong());
}

} // namespace rwb::widgets
