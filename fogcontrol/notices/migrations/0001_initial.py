"""Document templates in versions, issued documents (a copy of record on core's chain, protected by
database triggers) and their service."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models

from fogcontrol.core.records import ProtectCopyOfRecord


class Migration(migrations.Migration):

    initial = True

    dependencies = [
        ('contenttypes', '0002_remove_content_type_name'),
        ('core', '0002_chain_keyed_and_sealed'),
        ('registry', '0004_record_version'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name='DocumentTemplate',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('key', models.CharField(db_index=True, max_length=64)),
                ('version', models.PositiveIntegerField()),
                ('title', models.CharField(max_length=300)),
                ('body', models.TextField()),
                ('effective_from', models.DateField(help_text='The first day documents are issued from this version.')),
                ('adopted_by', models.CharField(blank=True, help_text='The resolution or approval that adopted this wording.', max_length=300)),
                ('created_by_label', models.CharField(blank=True, max_length=150)),
                ('created_at', models.DateTimeField(auto_now_add=True)),
                ('updated_at', models.DateTimeField(auto_now=True)),
                ('created_by', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='+', to=settings.AUTH_USER_MODEL)),
            ],
            options={
                'ordering': ['key', '-version'],
            },
        ),
        migrations.CreateModel(
            name='IssuedDocument',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('received_at', models.DateTimeField(db_index=True, editable=False, help_text='When received (UTC).')),
                ('submitted_by_label', models.CharField(max_length=150)),
                ('submission', models.TextField(help_text='The exact submission as received (canonical JSON).')),
                ('record_sequence', models.PositiveBigIntegerField(editable=False, unique=True)),
                ('previous_hash', models.CharField(editable=False, max_length=64)),
                ('record_hash', models.CharField(editable=False, max_length=64, unique=True)),
                ('key_epoch', models.PositiveIntegerField(editable=False, null=True)),
                ('key', models.CharField(db_index=True, max_length=64)),
                ('template_version', models.PositiveIntegerField()),
                ('addressee', models.TextField()),
                ('title', models.CharField(max_length=300)),
                ('body', models.TextField(help_text='The text as issued.')),
                ('provisions', models.CharField(blank=True, help_text='The provisions cited, comma-separated.', max_length=300)),
                ('letterhead', models.TextField(help_text="The Town's letterhead as it stood on issue, one line each.")),
                ('issued_on', models.DateField(db_index=True)),
                ('subject_id', models.PositiveBigIntegerField(blank=True, null=True)),
                ('establishment', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='issued_documents', to='registry.foodserviceestablishment')),
                ('subject_type', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='+', to='contenttypes.contenttype')),
                ('submitted_by', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='+', to=settings.AUTH_USER_MODEL)),
                ('template', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='documents', to='notices.documenttemplate')),
            ],
            options={
                'ordering': ['-issued_on', '-pk'],
            },
        ),
        migrations.CreateModel(
            name='DocumentService',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('method', models.CharField(choices=[('personal_delivery', 'Personal delivery'), ('certified_mail', 'Certified mail'), ('registered_mail', 'Registered mail'), ('first_class_mail', 'First-class mail'), ('email', 'Email'), ('posted_on_site', 'Posted on site')], max_length=24)),
                ('served_on', models.DateField(blank=True, help_text='Empty: to be served.', null=True)),
                ('article_number', models.CharField(blank=True, help_text='Certified or registered mail.', max_length=64)),
                ('note', models.TextField(blank=True)),
                ('recorded_at', models.DateTimeField(auto_now_add=True)),
                ('recorded_by_label', models.CharField(max_length=150)),
                ('recorded_by', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='+', to=settings.AUTH_USER_MODEL)),
                ('document', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='services', to='notices.issueddocument')),
            ],
            options={
                'ordering': ['-recorded_at', '-pk'],
            },
        ),
        migrations.AddConstraint(
            model_name='documenttemplate',
            constraint=models.UniqueConstraint(fields=('key', 'version'), name='document_template_version_unique'),
        ),
        migrations.AddIndex(
            model_name='issueddocument',
            index=models.Index(fields=['subject_type', 'subject_id'], name='issued_document_subject'),
        ),
        ProtectCopyOfRecord('notices_issueddocument'),
    ]
