#include "languagemanager.h"

#include <QCoreApplication>
#include <QLibraryInfo>
#include <QLocale>
#include <QSettings>
#include <QTranslator>

LanguageManager::LanguageManager(QObject *parent) : QObject(parent)
{
    m_qt = new QTranslator(this);
    m_app = new QTranslator(this);
}

QString LanguageManager::storedChoice()
{
    const QString v = QSettings().value(QStringLiteral("language"), QStringLiteral("system")).toString();
    return (v == QLatin1String("en") || v == QLatin1String("ja")) ? v : QStringLiteral("system");
}

void LanguageManager::setChoice(const QString &choice)
{
    m_choice = (choice == QLatin1String("en") || choice == QLatin1String("ja")) ? choice : QStringLiteral("system");
    QSettings().setValue(QStringLiteral("language"), m_choice);
    apply();
}

void LanguageManager::apply()
{
    QString lang = m_choice;
    if (lang == QLatin1String("system"))
        lang = QLocale::system().language() == QLocale::Japanese ? QStringLiteral("ja") : QStringLiteral("en");
    m_effective = lang;
    QCoreApplication::removeTranslator(m_qt);
    QCoreApplication::removeTranslator(m_app);
    if (lang == QLatin1String("ja")) {
        if (m_qt->load(QStringLiteral("qtbase_ja"), QLibraryInfo::path(QLibraryInfo::TranslationsPath)))
            QCoreApplication::installTranslator(m_qt);
        if (m_app->load(QStringLiteral(":/i18n/reward-workbench_ja.qm")))
            QCoreApplication::installTranslator(m_app);
        QLocale::setDefault(QLocale(QLocale::Japanese, QLocale::Japan));
    } else {
        // Removing an installed translator posts QEvent::LanguageChange to every widget.
        QLocale::setDefault(QLocale(QLocale::English, QLocale::UnitedStates));
    }
}
