CREATE TABLE clicks (
    user_id BIGINT NOT NULL,
    at TIMESTAMP NOT NULL LATENESS INTERVAL '5' MINUTES,
    day DATE,
    tod TIME
);

-- Timestamp, date and time literals are canonical strings; intervals are integers:
-- microseconds (DAY TO SECOND) or months (YEAR TO MONTH).
CREATE VIEW windows AS
SELECT at + INTERVAL '1' HOUR AS next_hour,
       at - INTERVAL '1:30' HOUR TO MINUTE AS earlier,
       INTERVAL '2' DAY + at AS later,
       at - TIMESTAMP '2024-01-01 00:00:00' AS since_new_year,
       day + INTERVAL '1' MONTH AS next_month,
       day + INTERVAL '1 12:00:00' DAY TO SECOND AS day_and_a_half,
       tod + INTERVAL '30' SECOND AS later_time,
       INTERVAL '1-6' YEAR TO MONTH AS eighteen_months,
       INTERVAL -'10.5' SECONDS AS negative_seconds,
       INTERVAL 3 DAYS AS unquoted,
       INTERVAL '1' HOUR * 2 AS two_hours,
       TIMESTAMP '2024-02-29 23:59:59.5' AS leap,
       TIMESTAMP '2024-01-01' AS midnight,
       DATE '2024-03-01' AS first_of_march,
       TIME '08:30' AS breakfast
FROM clicks
WHERE at BETWEEN TIMESTAMP '2024-01-01 00:00:00' AND TIMESTAMP '2025-01-01 00:00:00'
  AND day >= DATE '2024-01-01';
