# Production image: the control plane (web), the Celery worker and Spark all run from it.
FROM node:20-bookworm-slim AS frontend
WORKDIR /app/frontend
COPY frontend/package.json frontend/package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY frontend/ ./
RUN npm run build

FROM python:3.11-slim-bookworm
RUN apt-get update && apt-get install -y --no-install-recommends openjdk-17-jre-headless procps \
    && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY requirements.lock pyproject.toml ./
RUN pip install --no-cache-dir -r requirements.lock
COPY . .
RUN pip install --no-cache-dir --no-deps -e .
COPY --from=frontend /app/frontend/dist /app/frontend/dist
ENV DJANGO_SETTINGS_MODULE=backend.config.settings.prod \
    PYTHONPATH=/app \
    SPARK_HOME=/usr/local/lib/python3.11/site-packages/pyspark
EXPOSE 8000
CMD ["uvicorn", "backend.config.asgi:application", "--host", "0.0.0.0", "--port", "8000"]
