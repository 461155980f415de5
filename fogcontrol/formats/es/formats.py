"""Spanish as written in California's public services (docs/i18n.md): the dates of Mexico and the
U.S. Spanish press ("5 de marzo de 2026"), and U.S. numbers, as money is written here: a point
before the decimals, a comma between thousands ($1,234.50; 12.5 %)."""

DATE_FORMAT = r"j \d\e F \d\e Y"
TIME_FORMAT = "H:i"
DATETIME_FORMAT = r"j \d\e F \d\e Y \a \l\a\s H:i"
YEAR_MONTH_FORMAT = r"F \d\e Y"
MONTH_DAY_FORMAT = r"j \d\e F"
SHORT_DATE_FORMAT = "d/m/Y"
SHORT_DATETIME_FORMAT = "d/m/Y H:i"
FIRST_DAY_OF_WEEK = 0  # Sunday, as calendars in the U.S.
DECIMAL_SEPARATOR = "."
THOUSAND_SEPARATOR = ","
NUMBER_GROUPING = 3
