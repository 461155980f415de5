from rest_framework import serializers


class ReportFigureSerializer(serializers.Serializer):
    key = serializers.CharField(help_text="The figure's key within its section.")
    label = serializers.CharField()
    value = serializers.DecimalField(max_digits=16, decimal_places=2, coerce_to_string=False)
    note = serializers.CharField()


class SectionSerializer(serializers.Serializer):
    key = serializers.CharField()
    title = serializers.CharField()
    figures = ReportFigureSerializer(many=True)


class AnnualReportSerializer(serializers.Serializer):
    year = serializers.IntegerField()
    start = serializers.DateField()
    end = serializers.DateField()
    as_of = serializers.DateField(help_text="The last day counted: the year's end, or today for this year.")
    partial = serializers.BooleanField(help_text="True for the year under way.")
    sections = SectionSerializer(many=True)
    figures = serializers.SerializerMethodField(help_text='Every figure by "section.figure" key.')

    def get_figures(self, report) -> dict[str, float]:
        return {
            key: float(value) if not isinstance(value, int) else value
            for key, value in report.figures().items()
        }
