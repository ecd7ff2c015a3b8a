#include "componentweightseditor.h"

#include "rewardtext.h"

#include <QDoubleSpinBox>
#include <QEvent>
#include <QGridLayout>
#include <QLabel>
#include <QSignalBlocker>
#include <QSlider>

ComponentWeightsEditor::ComponentWeightsEditor(const QStringList &components, QWidget *parent)
    : QWidget(parent), m_components(components)
{
    auto *grid = new QGridLayout(this);
    grid->setContentsMargins(0, 0, 0, 0);
    m_header = new QLabel(this);
    m_header->setWordWrap(true);
    grid->addWidget(m_header, 0, 0, 1, 4);
    for (int i = 0; i < components.size(); ++i) {
        Row r;
        r.name = new QLabel(components[i], this);
        r.name->setObjectName(QStringLiteral("name_") + components[i]);
        QFont f = r.name->font();
        f.setBold(true);
        r.name->setFont(f);
        r.slider = new QSlider(Qt::Horizontal, this);
        r.slider->setObjectName(QStringLiteral("slider_") + components[i]);
        r.slider->setRange(0, 100);
        r.slider->setMinimumWidth(60); // the spin box is exact: the slider may be short in a narrow dock
        r.spin = new QDoubleSpinBox(this);
        r.spin->setObjectName(QStringLiteral("weight_") + components[i]);
        r.spin->setRange(0.0, kMaxWeight);
        r.spin->setDecimals(1);
        r.spin->setKeyboardTracking(false);
        r.share = new QLabel(this);
        r.share->setMinimumWidth(r.share->fontMetrics().horizontalAdvance(QStringLiteral("100.0 %")));
        r.share->setAlignment(Qt::AlignRight | Qt::AlignVCenter);
        r.name->setBuddy(r.spin);
        grid->addWidget(r.name, i + 1, 0);
        grid->addWidget(r.slider, i + 1, 1);
        grid->addWidget(r.spin, i + 1, 2);
        grid->addWidget(r.share, i + 1, 3);
        connect(r.slider, &QSlider::valueChanged, this, [this, i](int v) {
            // A slider at its end leaves a larger typed weight alone.
            if (v == 100 && m_rows[i].spin->value() > 100.0)
                return;
            m_rows[i].spin->setValue(v);
        });
        connect(r.spin, &QDoubleSpinBox::valueChanged, this, [this, i](double v) { onSpinChanged(i, v); });
        m_rows.push_back(r);
    }
    m_warning = new QLabel(this);
    m_warning->setWordWrap(true);
    m_warning->setStyleSheet(QStringLiteral("color: #b03020;"));
    grid->addWidget(m_warning, static_cast<int>(components.size()) + 1, 0, 1, 4);
    grid->setColumnStretch(1, 1);
    retranslate();
    updateShares();
}

QVector<double> ComponentWeightsEditor::weights() const
{
    QVector<double> w;
    for (const Row &r : m_rows)
        w.push_back(r.spin->value());
    return w;
}

void ComponentWeightsEditor::setWeights(const QVector<double> &weights)
{
    for (int i = 0; i < m_rows.size(); ++i) {
        const double v = weights.value(i, 0.0);
        const QSignalBlocker b1(m_rows[i].spin);
        const QSignalBlocker b2(m_rows[i].slider);
        m_rows[i].spin->setValue(v);
        m_rows[i].slider->setValue(static_cast<int>(std::lround(std::min(v, 100.0))));
    }
    updateShares();
}

void ComponentWeightsEditor::editWeight(int component, double weight)
{
    m_rows[component].spin->setValue(weight);
}

QSlider *ComponentWeightsEditor::slider(int component) const
{
    return m_rows[component].slider;
}

QDoubleSpinBox *ComponentWeightsEditor::spinBox(int component) const
{
    return m_rows[component].spin;
}

QString ComponentWeightsEditor::shareText(int component) const
{
    return m_rows[component].share->text();
}

void ComponentWeightsEditor::onSpinChanged(int component, double value)
{
    {
        const QSignalBlocker b(m_rows[component].slider);
        m_rows[component].slider->setValue(static_cast<int>(std::lround(std::min(value, 100.0))));
    }
    updateShares();
    Q_EMIT weightsChanged(weights());
}

void ComponentWeightsEditor::updateShares()
{
    double sum = 0.0;
    for (const Row &r : std::as_const(m_rows))
        sum += r.spin->value();
    for (Row &r : m_rows) {
        if (sum > 0.0)
            r.share->setText(QStringLiteral("%1 %").arg(r.spin->value() / sum * 100.0, 0, 'f', 1));
        else
            r.share->setText(QStringLiteral("—"));
    }
    m_warning->setVisible(!(sum > 0.0));
}

void ComponentWeightsEditor::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslate();
    QWidget::changeEvent(event);
}

void ComponentWeightsEditor::retranslate()
{
    m_header->setText(tr("Weight of each reward component; the share is its part of the total."));
    m_warning->setText(tr("All weights are 0: give at least one component a weight."));
    for (int i = 0; i < m_rows.size(); ++i) {
        const QString d = RewardText::description(m_components[i]);
        m_rows[i].name->setToolTip(d);
        m_rows[i].slider->setToolTip(d);
        m_rows[i].spin->setToolTip(tr("Weight of %1").arg(m_components[i]));
        m_rows[i].share->setToolTip(tr("Share of %1 in the total").arg(m_components[i]));
    }
}
