"""The only code that imports ``telegram`` (PTB): the application and its life cycle (``app``,
``lifecycle``), the handlers (``handlers``), HTTP (``http``), the webhook (``webhook``), the paced outbox
(``outbox``), PTB markup (``markup``) and the worker cluster on PostgreSQL (``cluster``)."""
