#pragma once

#include <QVector>
#include <QWidget>

class QDoubleSpinBox;
class QLabel;
class QSlider;

// One row per reward component: its name, a slider (0–100) and a spin box
// (0–1000, one decimal) that move together, and its normalized share of the total
// weight. Emits weightsChanged() on every user edit (not for setWeights()).
class ComponentWeightsEditor : public QWidget {
    Q_OBJECT
public:
    // The highest weight the spin box takes; the slider covers 0–100.
    static constexpr double kMaxWeight = 1000.0;

    explicit ComponentWeightsEditor(const QStringList &components, QWidget *parent = nullptr);

    QVector<double> weights() const;
    void setWeights(const QVector<double> &weights);
    // For tests and keyboard users: set one weight as if the user typed it.
    void editWeight(int component, double weight);

    QSlider *slider(int component) const;
    QDoubleSpinBox *spinBox(int component) const;
    QString shareText(int component) const;

Q_SIGNALS:
    void weightsChanged(const QVector<double> &weights);

protected:
    void changeEvent(QEvent *event) override;

private:
    void onSpinChanged(int component, double value);
    void updateShares();
    void retranslate();

    struct Row {
        QLabel *name = nullptr;
        QSlider *slider = nullptr;
        QDoubleSpinBox *spin = nullptr;
        QLabel *share = nullptr;
    };
    QStringList m_components;
    QVector<Row> m_rows;
    QLabel *m_header = nullptr;
    QLabel *m_warning = nullptr;
};
